package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/**
 * What a policy sees in one scheduling round. The policy must not change {@code cluster}: the caller
 * (simulator or live scheduler) applies the placements it returns.
 *
 * @param now     current time on the caller's clock, seconds
 * @param pending jobs waiting, in arrival order
 */
public record SchedulingContext(double now, List<JobRequest> pending, ClusterState cluster) {
    public SchedulingContext {
        pending = List.copyOf(pending);
    }
}
