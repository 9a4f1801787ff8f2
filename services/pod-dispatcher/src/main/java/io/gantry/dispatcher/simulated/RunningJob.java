package io.gantry.dispatcher.simulated;

import io.gantry.events.SchedulingDecision;
import io.gantry.scheduling.model.Resources;
import java.util.List;

/**
 * A job bound to the simulated cluster: task {@code i} is the pod {@code jobId-i} on {@code nodes.get(i)}, each
 * requesting {@code perTask}.
 *
 * @param durationS simulated seconds it runs (the decision's, or the configured default)
 */
public record RunningJob(SchedulingDecision decision, List<String> nodes, Resources perTask, double durationS,
                         double startedAtSimSeconds) {

    public String jobId() {
        return decision.jobId();
    }

    public String podName(int task) {
        return decision.jobId() + "-" + task;
    }
}
