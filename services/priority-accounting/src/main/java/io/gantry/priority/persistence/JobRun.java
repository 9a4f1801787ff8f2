package io.gantry.priority.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;

/** A job's latest stint: resources of all its tasks together, and whether it still holds them. */
@Entity
@Table(name = "job_run")
public class JobRun extends UserJob {
    @Column(name = "started_at")
    public Instant startedAt;
    @Column(name = "gpu_milli")
    public long gpuMilli;
    @Column(name = "cpu_milli")
    public long cpuMilli;
    @Column(name = "memory_mib")
    public long memoryMib;
    public boolean running;

    public double gpus() {
        return gpuMilli / 1000.0;
    }
}
