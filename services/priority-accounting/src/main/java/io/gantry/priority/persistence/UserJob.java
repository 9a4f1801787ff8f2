package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/** A row keyed by a job, naming the user it belongs to: the ledger's waiting jobs and its stints. */
@MappedSuperclass
public abstract class UserJob extends PanacheEntityBase {
    @Id
    public String jobId;
    public String userName;
}
