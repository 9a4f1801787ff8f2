package io.gantry.scheduler.mapping;

import io.gantry.events.JobTuned;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;

/** The one place sac-scheduler turns tuned jobs into the core's job requests. Times are on the jobs' clock. */
public final class JobRequests {

    private JobRequests() {
    }

    /** What the policy sees of a queued job: no true duration (a live policy never knows it). */
    public static JobRequest queued(JobTuned job, double submittedAtS, double priority) {
        double predicted = job.predictedDurationS() == null ? Double.NaN : job.predictedDurationS();
        return new JobRequest(job.jobId(), job.user(), job.tasks(), Amounts.resources(job.perTask()), submittedAtS,
                priority, predicted, Double.NaN);
    }

    /** A completed job as the learner replays it: its true duration is what it ran over all its stints. */
    public static JobRequest completed(JobTuned job, double submittedAtS, double ranS) {
        Resources perTask = Amounts.resources(job.perTask());
        return new JobRequest(job.jobId(), job.user(), job.tasks(), perTask, submittedAtS, 0, Double.NaN, ranS);
    }

    /** A running job known only from its decision (its submission is gone from the tuned topic): no durations. */
    public static JobRequest decidedOnly(String jobId, String user, int tasks, Resources perTask, double submittedAtS,
                                         double priority) {
        return new JobRequest(jobId, user, tasks, perTask, submittedAtS, priority, Double.NaN, Double.NaN);
    }
}
