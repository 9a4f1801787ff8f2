package io.gantry.studio.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/** One JobProgress of a run, kept once per event id: the points of its curves. */
@Entity
@Table(name = "studio_progress")
public class ProgressPoint extends GeneratedIdEntity {

    @Column(name = "job_id")
    public String jobId;
    @Column(name = "event_id")
    public String eventId;
    public Integer epoch;
    public Long step;
    public double progress;
    @Column(name = "train_loss")
    public Double trainLoss;
    @Column(name = "validation_loss")
    public Double validationLoss;
    @Column(name = "validation_accuracy")
    public Double validationAccuracy;
    @Column(name = "samples_per_second")
    public Double samplesPerSecond;
    @Column(name = "occurred_at")
    public Instant occurredAt;

    public static List<ProgressPoint> of(String jobId) {
        return list("jobId = ?1 order by occurredAt, id", jobId);
    }

    public static boolean seen(String eventId) {
        return count("eventId", eventId) > 0;
    }
}
