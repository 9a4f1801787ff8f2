package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A published priority and the terms it was computed from; {@code id} is the UserPriority event id. */
@Entity
@Table(name = "priority_history")
public class PriorityRecord extends PanacheEntityBase {
    @Id
    public String id;
    public String userName;
    public Instant computedAt;
    public double basePriority;
    public double weight;
    public double decayedGpuSeconds;
    public double usageShare;
    public double entitlementShare;
    public double fairShareFactor;
    public double priority;
    public String reason;
}
