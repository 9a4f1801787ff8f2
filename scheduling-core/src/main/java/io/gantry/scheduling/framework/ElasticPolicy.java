package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/**
 * A policy that changes the size of the jobs it runs (Pollux): it may place a pending job with more or fewer tasks
 * than the job asked for, and its jobs' run time depends on where they run, so it tells the driver how long a job
 * needs ({@link JobModel}). The engine takes a placement of any size from such a policy ({@link #resized}); a
 * running job changes size by being stopped and placed again, which the driver charges as a restart. Policies
 * that do not implement this keep fixed gangs and fixed durations.
 */
public interface ElasticPolicy extends SchedulingPolicy {

    /** {@code job} as it runs on {@code tasks} tasks (by default of the same per-task request); every placement goes through it. */
    default JobRequest resized(JobRequest job, int tasks) {
        return job.tasks() == tasks ? job : new JobRequest(job.id(), job.user(), tasks, job.perTask(), job.submitTime(), job.priority(),
                job.predictedDurationS(), job.trueDurationS());
    }

    /** How far a job's training gets on an allocation; shared by the policy and the driver that times the jobs. */
    JobModel jobModel();

    /** A job's training progress in [0, {@link #total}], its own units (for Pollux: statistical progress). */
    interface JobModel {
        double total(JobRequest job);

        /** Seconds of run time to go from {@code progress} to {@link #total} on {@code nodes} (one entry per task). */
        double secondsToFinish(JobRequest job, List<String> nodes, double progress);

        /** Progress after running {@code seconds} on {@code nodes} from {@code progress}. */
        double progressAfter(JobRequest job, List<String> nodes, double progress, double seconds);

        /** Run time lost each time a job starts on a new allocation (checkpoint-restart). */
        double restartDelayS();

        /**
         * One stint of the job ended: it trained from {@code fromProgress} to {@code toProgress} on {@code nodes}
         * (a model that credits a job with a metric by the batches it trained at records them here).
         */
        default void trained(JobRequest job, List<String> nodes, double fromProgress, double toProgress) {
        }
    }
}
