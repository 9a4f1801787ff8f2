package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
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
    @Column(name = "user_name")
    public String userName;
    @Column(name = "computed_at")
    public Instant computedAt;
    @Column(name = "base_priority")
    public double basePriority;
    public double weight;
    @Column(name = "decayed_gpu_seconds")
    public double decayedGpuSeconds;
    @Column(name = "usage_share")
    public double usageShare;
    @Column(name = "entitlement_share")
    public double entitlementShare;
    @Column(name = "fair_share_factor")
    public double fairShareFactor;
    public double priority;
    public String reason;
}
