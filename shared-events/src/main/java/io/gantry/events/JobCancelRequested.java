package io.gantry.events;

import java.time.Instant;

/**
 * A user asks to stop their job. Published on {@code gantry.jobs.cancellations} keyed by {@code jobId} (the studio
 * sends it for its own user's run). A request, not an outcome: the job ends exactly once, with a
 * {@link JobFailed} whose reason is {@link #REASON} on {@code gantry.jobs.lifecycle}, written by whoever holds the job
 * when the request arrives: sac-scheduler for a job still queued (it drops the job and its reservations), pod-dispatcher
 * for a running one (it stops the runner). A request for a job that has already ended changes nothing.
 *
 * @param user   who asks; must be the job's owner (services compare it with the user of the job they hold)
 * @param reason why, for the log (optional)
 */
public record JobCancelRequested(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        String reason) implements JobEvent {

    public static final String TYPE = "JobCancelRequested";
    /** The reason of the {@link JobFailed} that ends a cancelled job. */
    public static final String REASON = "cancelled";

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.user("user", user);
        v.textIfPresent("reason", reason, Limits.MAX_NAME_LENGTH);
    }
}
