package io.gantry.priority.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A lifecycle or submission event already applied; written in the transaction that applied it. */
@Entity
@Table(name = "processed_event")
public class ProcessedEvent extends PanacheEntityBase {
    @Id
    public String eventId;
    public String jobId;
    public String eventType;
    public Instant processedAt;
}
