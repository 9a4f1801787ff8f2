package io.gantry.priority.persistence;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;

/** A job's latest stint: resources of all its tasks together, and whether it still holds them. */
@Entity
@Table(name = "job_run")
public class JobRun extends UserJob {
    public Instant startedAt;
    public long gpuMilli;
    public long cpuMilli;
    public long memoryMib;
    public boolean running;

    public double gpus() {
        return gpuMilli / 1000.0;
    }
}
