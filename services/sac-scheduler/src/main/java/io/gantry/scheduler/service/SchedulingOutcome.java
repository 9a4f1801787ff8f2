package io.gantry.scheduler.service;

import io.gantry.events.JobRejected;
import io.gantry.events.SchedulingDecision;
import java.util.List;

/** What one change of the scheduler's state led to: decisions to dispatch and jobs to reject. */
public record SchedulingOutcome(List<SchedulingDecision> decisions, List<JobRejected> rejections) {
    public static final SchedulingOutcome NONE = new SchedulingOutcome(List.of(), List.of());

    public boolean isEmpty() {
        return decisions.isEmpty() && rejections.isEmpty();
    }
}
