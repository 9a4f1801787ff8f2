package io.gantry.events;

/**
 * A running job a {@link SchedulingDecision} stops first to make room: the job and the stint (its
 * {@code attempt}-th start) that must stop, so a stop that arrives late can never hit a later start of the job.
 */
public record Preemption(String jobId, int attempt) {

    void check(Violations v, String field) {
        v.jobId(field + ".jobId", jobId);
        v.atLeast(field + ".attempt", attempt, 1);
    }
}
