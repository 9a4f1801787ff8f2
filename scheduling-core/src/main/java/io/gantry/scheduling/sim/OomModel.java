package io.gantry.scheduling.sim;

import io.gantry.scheduling.model.JobRequest;

/**
 * Which placements of a job run out of memory. A job whose memory request is below its real peak is killed when it
 * reaches that peak, losing its progress, and is resubmitted as {@link #retryAs}; each kill is counted in
 * {@link SimulationResult#oomKills()}. The retried request is not asked again, so a job is killed at most once.
 */
public interface OomModel {

    /** Seconds into a run at which {@code job} is OOM-killed; NaN or infinite when it is not. */
    double killAfterS(JobRequest job);

    /** What the killed job is resubmitted as (typically its original, un-right-sized request). */
    JobRequest retryAs(JobRequest job);
}
