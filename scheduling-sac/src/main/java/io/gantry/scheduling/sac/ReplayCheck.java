package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.util.List;

/**
 * One paired replay of the online learner's gate ({@link PromotionGate}, which decides): the same jobs on the same
 * nodes through a candidate agent and the agent in charge (both greedy, the history duration predictor as in
 * training), and each one's average JCT. Arrivals are rescaled to the offered load {@code load} first
 * ({@link WorkloadShaper}): at a light load every order gives the same JCTs and the check would say nothing.
 * Deterministic for the same inputs.
 */
public final class ReplayCheck {

    /** Average JCTs of the two replays, in the jobs' seconds. */
    public record Result(double candidateAvgJctS, double currentAvgJctS, int jobs, double load) {
    }

    private ReplayCheck() {
    }

    /**
     * @param jobs jobs with their true durations ({@link JobRequest#trueDurationS()}) and submit times
     * @throws IllegalArgumentException when there is nothing to replay
     * @throws IllegalStateException    when a policy's inference fails during the replay
     */
    public static Result compare(SacAgent candidate, SacAgent current, List<JobRequest> jobs, List<NodeSpec> nodes,
                                 double load) {
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("jobs: nothing to replay");
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes: no node to replay on");
        }
        List<JobRequest> shaped = WorkloadShaper.shape(jobs, nodes, load, 0, 0).jobs();
        if (shaped.isEmpty()) {
            throw new IllegalArgumentException("jobs: none of the " + jobs.size() + " jobs fits these nodes");
        }
        return new Result(avgJct("candidate", candidate, shaped, nodes), avgJct("current", current, shaped, nodes),
                shaped.size(), load);
    }

    /**
     * Average JCT of the greedy policy of {@code agent} replaying {@code jobs} (already shaped) on {@code nodes}; also
     * the trainer's validation replay.
     *
     * @param which names the agent in the error when its inference fails
     */
    public static double avgJct(String which, SacAgent agent, List<JobRequest> jobs, List<NodeSpec> nodes) {
        SacPolicy policy = SacPolicy.greedy(agent);
        SimulationResult result = new Simulator(nodes, policy, new HistoryDurationPredictor()).run(jobs, null);
        if (policy.fallbackReason().isPresent()) {
            throw new IllegalStateException("the " + which + " policy failed in the replay check: "
                    + policy.fallbackReason().get());
        }
        return result.outcomes().stream().mapToDouble(JobOutcome::jctS).average().orElse(0);
    }
}
