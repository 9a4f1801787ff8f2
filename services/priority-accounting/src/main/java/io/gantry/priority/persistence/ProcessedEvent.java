package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A lifecycle or submission event already applied; written in the transaction that applied it. */
@Entity
@Table(name = "processed_event")
public class ProcessedEvent extends PanacheEntityBase {
    @Id
    @Column(name = "event_id")
    public String eventId;
    @Column(name = "job_id")
    public String jobId;
    @Column(name = "event_type")
    public String eventType;
    @Column(name = "processed_at")
    public Instant processedAt;
}
