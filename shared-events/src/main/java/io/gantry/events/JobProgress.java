package io.gantry.events;

import java.time.Instant;

/** Training progress reported by a running job; metrics it cannot report are null. */
public record JobProgress(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        double progress,
        Integer epoch,
        Double loss,
        Double accuracy,
        Double samplesPerSecond) implements LifecycleEvent {

    public static final String TYPE = "JobProgress";

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.userIfPresent("user", user);
        v.between("progress", progress, 0.0, 1.0);
        v.withinIfPresent("epoch", epoch, 0, Limits.MAX_EPOCHS);
    }
}
