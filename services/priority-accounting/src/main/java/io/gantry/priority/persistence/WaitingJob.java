package io.gantry.priority.persistence;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;

/** A submitted job that has not started yet. */
@Entity
@Table(name = "waiting_job")
public class WaitingJob extends UserJob {
    public Instant submittedAt;

    /** A new row, not yet persisted: {@code jobId} of {@code user} waits from {@code since}. */
    public static WaitingJob of(String jobId, String user, Instant since) {
        WaitingJob w = new WaitingJob();
        w.jobId = jobId;
        w.userName = user;
        w.submittedAt = since;
        return w;
    }
}
