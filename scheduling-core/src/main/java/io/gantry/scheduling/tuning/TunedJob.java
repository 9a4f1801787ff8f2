package io.gantry.scheduling.tuning;

import io.gantry.scheduling.model.JobRequest;

/**
 * A trace job after the tuner, as the simulator runs it.
 *
 * @param job          the request as queued (tuned resources, run time measured for the tuned configuration)
 * @param retryAs      what it is resubmitted as if it is OOM-killed (the original request); null when it cannot be
 * @param oomAfterS    seconds into its run at which it is OOM-killed (its memory was sized below its peak); NaN if never
 * @param targetMetric the validation metric the job as submitted reaches; NaN when the trace has no model
 * @param finalMetric  what it reaches as run; NaN when the trace has no model
 */
public record TunedJob(JobRequest job, JobRequest retryAs, double oomAfterS, double targetMetric, double finalMetric) {

    public static TunedJob untouched(JobRequest job) {
        return new TunedJob(job, null, Double.NaN, Double.NaN, Double.NaN);
    }

    public boolean hasTarget() {
        return !Double.isNaN(targetMetric);
    }
}
