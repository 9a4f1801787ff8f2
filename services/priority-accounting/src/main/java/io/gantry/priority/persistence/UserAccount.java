package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A user (tenant) an administrator configured, or one first seen in a lifecycle event with the defaults. */
@Entity
@Table(name = "gantry_user")
public class UserAccount extends PanacheEntityBase {
    @Id
    public String name;
    @Column(name = "base_priority")
    public double basePriority;
    /** Entitlement weight: the user's share of the cluster is weight ÷ Σ weights. */
    public double weight;
    /** Most GPUs the user may hold at once; null = no limit. Informational for the scheduler. */
    @Column(name = "max_gpus")
    public Integer maxGpus;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "updated_at")
    public Instant updatedAt;
}
