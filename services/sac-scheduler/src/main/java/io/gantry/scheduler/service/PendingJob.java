package io.gantry.scheduler.service;

import io.gantry.events.JobTuned;
import io.gantry.scheduler.mapping.Amounts;
import io.gantry.scheduler.mapping.JobRequests;
import io.gantry.scheduling.engine.Clock;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;

/**
 * A tuned job waiting in the queue: for its {@code attempt}-th start, having received {@code attainedGpuS}
 * GPU-seconds and run {@code ranS} job seconds in the stints it was preempted from.
 */
record PendingJob(JobTuned job, int attempt, double attainedGpuS, double ranS) {

    /** A job never started. */
    PendingJob(JobTuned job) {
        this(job, 1, 0, 0);
    }

    Resources perTask() {
        return Amounts.resources(job.perTask());
    }

    /** What the policy sees: submit time on the jobs' clock, no true duration (a live policy never knows it). */
    JobRequest toRequest(double priority, Clock clock) {
        return JobRequests.queued(job, clock.seconds(job.submittedAt()), priority);
    }

    /** What is left of the job's run (the simulated cluster runs it that long); null when its duration is unknown. */
    Double remainingDurationS() {
        return job.durationS() == null ? null : Math.max(0, job.durationS() - ranS);
    }
}
