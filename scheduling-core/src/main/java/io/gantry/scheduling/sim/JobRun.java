package io.gantry.scheduling.sim;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.model.JobRequest;

/** One trace job in a replay of the {@link Simulator}: what it is queued as, how far it got and how it ran. */
final class JobRun {
    /** The job as queued: with fair share its priority is replaced as its tenant's priority changes. */
    JobRequest job;
    final double tracePriority;
    final double submit;
    double remainingS;
    /**
     * Training progress of a job whose run time depends on its allocation (an {@link ElasticPolicy}'s, or an
     * {@link AdaptiveJobs} one).
     */
    double progress;
    double attainedGpuS;
    double firstStart = Double.NaN;
    int preemptions;
    /** Restarts on a new allocation (after a preemption or a re-tuned GPU count): each pays the preemption cost. */
    int restarts;
    /** Run time charged for those restarts: each one's restart delay (timed jobs) plus the preemption cost. */
    double restartS;
    int stint;
    RunningJob current;
    boolean retried;

    JobRun(JobRequest job) {
        this.job = job;
        this.tracePriority = job.priority();
        this.submit = job.submitTime();
        this.remainingS = job.trueDurationS();
    }

    /** @param oomKill the run ends because it ran out of memory, not because its work is done */
    record Completion(double time, long seq, JobRun run, int stint, boolean oomKill) {
    }
}
