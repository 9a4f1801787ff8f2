package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
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
    public String userName;
    public String jobId;
    public Instant intervalStart;
    public Instant intervalEnd;
    public double gpuSeconds;
    public double cpuSeconds;
    public double memoryMibSeconds;

    public double seconds() {
        return (intervalEnd.toEpochMilli() - intervalStart.toEpochMilli()) / 1000.0;
    }
}
