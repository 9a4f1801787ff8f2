package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A submitted job that has not started yet. */
@Entity
@Table(name = "waiting_job")
public class WaitingJob extends PanacheEntityBase {
    @Id
    @Column(name = "job_id")
    public String jobId;
    @Column(name = "user_name")
    public String userName;
    @Column(name = "submitted_at")
    public Instant submittedAt;
}
