package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** One finished stint of a job in the usage ledger; {@code id} is the event that closed it. */
@Entity
@Table(name = "usage_interval")
public class UsageInterval extends PanacheEntityBase {
    @Id
    public String id;
    @Column(name = "user_name")
    public String userName;
    @Column(name = "job_id")
    public String jobId;
    @Column(name = "interval_start")
    public Instant intervalStart;
    @Column(name = "interval_end")
    public Instant intervalEnd;
    @Column(name = "gpu_seconds")
    public double gpuSeconds;
    @Column(name = "cpu_seconds")
    public double cpuSeconds;
    @Column(name = "memory_mib_seconds")
    public double memoryMibSeconds;

    public double seconds() {
        return (intervalEnd.toEpochMilli() - intervalStart.toEpochMilli()) / 1000.0;
    }
}
