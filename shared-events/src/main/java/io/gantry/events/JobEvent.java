package io.gantry.events;

/**
 * An event about one job: keyed by its job id, so one job's events stay in order on their topic. Every event that
 * names a job is one; {@link LifecycleEvent} is the subset on {@code gantry.jobs.lifecycle}.
 */
public sealed interface JobEvent extends GantryEvent
        permits JobSubmitted, JobTuned, SchedulingDecision, JobCancelRequested, LifecycleEvent {

    String jobId();

    String user();

    @Override
    default String key() {
        return jobId();
    }
}
