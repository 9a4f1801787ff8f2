package io.gantry.events;

import java.time.Instant;

/**
 * The job will never run: {@code field} and {@code reason} say why, {@code stage} says who decided
 * ({@code job-tuner}, {@code sac-scheduler}, ...).
 */
public record JobRejected(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        String stage,
        String field,
        String reason) implements LifecycleEvent {

    public static final String TYPE = "JobRejected";

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.userIfPresent("user", user);
        v.notBlank("stage", stage);
        v.notBlank("reason", reason);
    }
}
