package io.gantry.scheduler.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobFailed;
import io.gantry.events.JobTuned;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The scheduler's part of a cancel request: a job still in its queue, asked for by its owner, leaves the queue (it
 * holds no reservation yet) and ends with a {@link JobFailed} of reason {@link JobCancelRequested#REASON}. A job placed
 * already is left to the dispatcher, which stops it; an unknown or ended job, or another user's request, changes
 * nothing. The event id derives from the request's, so a redelivered request that still finds the job (a crash
 * before the ack) writes the same event again.
 */
public final class PendingCancellation {

    private PendingCancellation() {
    }

    public static Optional<JobFailed> of(LiveEngine state, JobCancelRequested request, Instant now) {
        Optional<JobTuned> job = state.pendingJobs().stream().filter(j -> j.jobId().equals(request.jobId()))
                .findFirst();
        if (job.isEmpty() || !job.get().user().equals(request.user()) || !state.withdraw(request.jobId())) {
            return Optional.empty();
        }
        return Optional.of(new JobFailed(Events.derivedId("cancelled", request.eventId()), GantryEvent.SCHEMA_VERSION,
                now, request.jobId(), request.user(), List.of(), job.get().perTask(), JobCancelRequested.REASON,
                false));
    }
}
