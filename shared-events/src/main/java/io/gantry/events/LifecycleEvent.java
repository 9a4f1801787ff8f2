package io.gantry.events;

/** What happened to a job, on {@code gantry.jobs.lifecycle}, keyed by job id so one job's events stay in order. */
public sealed interface LifecycleEvent extends JobEvent
        permits JobStarted, JobProgress, JobResult, JobCompleted, JobFailed, JobPreempted, JobRejected {

    /** True for the states a job does not leave: completed, failed, rejected. */
    default boolean terminal() {
        return this instanceof JobCompleted || this instanceof JobFailed || this instanceof JobRejected;
    }
}
