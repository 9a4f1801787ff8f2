package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
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
    public double basePriority;
    /** Entitlement weight: the user's share of the cluster is weight ÷ Σ weights. */
    public double weight;
    /** Most GPUs the user may hold at once; null = no limit. Informational for the scheduler. */
    public Integer maxGpus;
    public Instant createdAt;
    public Instant updatedAt;
}
