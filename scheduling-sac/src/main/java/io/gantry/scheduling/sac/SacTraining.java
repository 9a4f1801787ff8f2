package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Offline pre-training on trace replay. Each episode replays a window of {@code episodeJobs} consecutive
 * training jobs, at a load drawn from {@code loads}, through the simulator with the agent sampling its
 * actions; the decisions become transitions ({@link EpisodeRecorder}) in the replay buffer, and then
 * {@code updatesPerDecision} × decisions gradient steps are taken. Everything random comes from one seed
 * (windows, loads, action sampling, batch sampling, initial weights), and DJL runs single-threaded, so
 * the same seed gives the same log.
 */
public final class SacTraining {

    /**
     * @param trainJobs   the jobs episodes are cut from (never the data results are reported on)
     * @param warmup      transitions in the buffer before the first gradient step
     */
    public record Config(List<JobRequest> trainJobs, List<NodeSpec> nodes, List<Double> loads, int episodes,
                         int episodeJobs, double updatesPerDecision, int warmup, long seed, SacSettings settings) {
    }

    /** One line of the training log. */
    public record EpisodeLog(int episode, double load, int jobs, int decisions, double episodeReturn, double avgJctS,
                             double policyEntropy, double alpha, double actorLoss, double criticLoss, int updates,
                             double wallS) {
    }

    @FunctionalInterface
    public interface Listener {
        void episodeDone(EpisodeLog log);
    }

    private SacTraining() {
    }

    /** Trains {@code agent} (fresh or loaded) in place. */
    public static void train(Config c, SacAgent agent, Listener listener) {
        SplittableRandom rng = new SplittableRandom(c.seed());
        ReplayBuffer buffer = new ReplayBuffer(c.settings().replayCapacity());
        double updateDebt = 0;
        for (int ep = 1; ep <= c.episodes(); ep++) {
            long start = System.nanoTime();
            double load = c.loads().get(rng.nextInt(c.loads().size()));
            WorkloadShaper.Shaped shaped = WorkloadShaper.shape(c.trainJobs(), c.nodes(), load, c.episodeJobs(), rng.nextLong());
            EpisodeRecorder recorder = new EpisodeRecorder(agent.settings());
            SacPolicy policy = SacPolicy.exploring(agent, rng.split(), recorder);
            SimulationResult result = new Simulator(c.nodes(), policy, new HistoryDurationPredictor()).run(shaped.jobs(), null);
            if (policy.fallbackReason().isPresent()) {
                throw new IllegalStateException("training episode " + ep + " failed: " + policy.fallbackReason().get());
            }
            List<Transition> transitions = recorder.transitions(result.outcomes());
            double ret = 0;
            for (Transition t : transitions) {
                buffer.add(t);
                ret += t.reward();
            }
            double actor = 0;
            double critic = 0;
            int updates = 0;
            if (buffer.size() >= Math.max(c.warmup(), c.settings().batchSize())) {
                updateDebt += c.updatesPerDecision() * transitions.size();
                for (; updateDebt >= 1; updateDebt--) {
                    SacAgent.UpdateStats s = agent.update(buffer.sample(c.settings().batchSize(), rng));
                    actor += s.actorLoss();
                    critic += s.criticLoss();
                    updates++;
                }
            }
            double jct = result.outcomes().stream().mapToDouble(JobOutcome::jctS).average().orElse(0);
            listener.episodeDone(new EpisodeLog(ep, load, shaped.jobs().size(), recorder.decisions(), ret, jct,
                    recorder.meanPolicyEntropy(), agent.alpha(), updates == 0 ? Double.NaN : actor / updates,
                    updates == 0 ? Double.NaN : critic / updates, updates, (System.nanoTime() - start) / 1e9));
        }
    }
}
