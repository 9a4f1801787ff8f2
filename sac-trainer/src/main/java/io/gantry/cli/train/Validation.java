package io.gantry.cli.train;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.sac.ReplayCheck;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.util.ArrayList;
import java.util.List;

/**
 * The trainer's held-out measure: one window of validation-split jobs, the same one every time (seeded once), shaped
 * to each training load, replayed greedily; the score is the mean over loads of the average JCT. It is what settings
 * are chosen by, never the reporting split.
 */
final class Validation {

    private final List<List<JobRequest>> windows = new ArrayList<>();
    private final List<NodeSpec> nodes;

    Validation(List<JobRequest> validationJobs, List<NodeSpec> nodes, List<Double> loads, int windowJobs, long seed) {
        this.nodes = nodes;
        for (double load : loads) {
            windows.add(WorkloadShaper.shape(validationJobs, nodes, load, windowJobs, seed).jobs());
        }
    }

    /** Jobs in one window. */
    int jobs() {
        return windows.get(0).size();
    }

    /** Mean over the loads of the greedy policy's average JCT, in seconds. */
    double avgJctS(SacAgent agent) {
        double sum = 0;
        for (List<JobRequest> w : windows) {
            sum += ReplayCheck.avgJct("validated", agent, w, nodes);
        }
        return sum / windows.size();
    }
}
