package io.gantry.scheduler.service;

import io.gantry.events.JobRejected;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import java.util.List;

/**
 * What one change of the scheduler's state led to: decisions to dispatch and jobs to reject; {@code stops} are the
 * round's victims in the order the policy chose them (each also travels in the round's decisions).
 */
public record SchedulingOutcome(List<SchedulingDecision> decisions, List<JobRejected> rejections,
                                List<Preemption> stops) {
    public static final SchedulingOutcome NONE = new SchedulingOutcome(List.of(), List.of(), List.of());

    public SchedulingOutcome(List<SchedulingDecision> decisions, List<JobRejected> rejections) {
        this(decisions, rejections, List.of());
    }

    public boolean isEmpty() {
        return decisions.isEmpty() && rejections.isEmpty();
    }
}
