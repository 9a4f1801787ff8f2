package io.gantry.studio.persistence;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/** One JobProgress of a run, kept once per event id: the points of its curves. */
@Entity
@Table(name = "studio_progress")
public class ProgressPoint extends GeneratedIdEntity {

    public String jobId;
    public String eventId;
    public Integer epoch;
    public Long step;
    public double progress;
    public Double trainLoss;
    public Double validationLoss;
    public Double validationAccuracy;
    public Double samplesPerSecond;
    public Instant occurredAt;

    public static List<ProgressPoint> of(String jobId) {
        return list("jobId = ?1 order by occurredAt, id", jobId);
    }

    public static boolean seen(String eventId) {
        return count("eventId", eventId) > 0;
    }
}
