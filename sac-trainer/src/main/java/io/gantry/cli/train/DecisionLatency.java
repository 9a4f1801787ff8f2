package io.gantry.cli.train;

import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.trace.NodeShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Wall time of one SAC scheduling round ({@code decide}: every decision of the round, candidate building
 * included) on a cluster whose nodes are randomly part-filled, with pending jobs drawn from a real trace and
 * predictions from the history predictor fed the trace's earlier jobs. Every busy GPU is a running one-GPU job
 * (a trace job's prediction, up to a day of attained service), so the round also plans preemptions, as in the
 * simulator. The round is the unit a live scheduler waits for, so this is stricter than timing a single forward pass.
 */
final class DecisionLatency {

    private static final int WARMUP = 50;
    private static final int TRIALS = 400;

    private DecisionLatency() {
    }

    /** Percentiles of whole rounds, and of the mean time per decision within a round (round ÷ decisions taken). */
    record Result(int nodes, int pending, double p50Ms, double p99Ms, double maxMs, double decisionP50Ms,
                  double decisionP99Ms, double meanPlacements) {
        String line() {
            return String.format(Locale.ROOT, "%5d nodes x %3d pending: round p50 %.2f ms, p99 %.2f ms, max %.2f ms;"
                    + " per decision p50 %.3f ms, p99 %.3f ms (%.1f jobs placed per round on average, %d rounds)",
                    nodes, pending, p50Ms, p99Ms, maxMs, decisionP50Ms, decisionP99Ms, meanPlacements, TRIALS);
        }
    }

    static Result measure(SacPolicy policy, List<JobRequest> traceJobs, int nodeCount, int pendingCount, long seed) {
        List<JobRequest> jobs = new ArrayList<>(traceJobs);
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime));
        HistoryDurationPredictor predictor = new HistoryDurationPredictor();
        int history = Math.min(2000, jobs.size() / 2);
        for (int i = 0; i < history; i++) {
            predictor.observe(jobs.get(i), jobs.get(i).trueDurationS());
        }
        List<NodeSpec> specs = NodeShape.ALIBABA_G2.nodes(nodeCount);
        SplittableRandom rng = new SplittableRandom(seed);
        double[] ms = new double[TRIALS];
        double[] perDecision = new double[TRIALS];
        double placed = 0;
        for (int t = -WARMUP; t < TRIALS; t++) {
            ClusterState cluster = new ClusterState(specs);
            int start = history + rng.nextInt(jobs.size() - history - pendingCount);
            double now = jobs.get(start + pendingCount - 1).submitTime();
            List<RunningJob> running = new ArrayList<>();
            for (NodeState n : cluster.nodes()) {
                int busy = rng.nextInt(9);
                for (int g = 0; g < busy; g++) {
                    Resources oneGpu = Resources.ofGpus(1, 4, 16);
                    cluster.allocate(n.name(), oneGpu);
                    JobRequest like = jobs.get(rng.nextInt(history));
                    double age = rng.nextDouble() * 86_400;
                    JobRequest r = new JobRequest("running-" + n.name() + "-" + g, like.user(), 1, oneGpu, now - age, 0,
                            predictor.predict(like), Double.NaN);
                    running.add(new RunningJob(r, List.of(n.name()), now - age, 0));
                }
            }
            List<JobRequest> pending = new ArrayList<>(pendingCount);
            for (int i = start; i < start + pendingCount; i++) {
                JobRequest j = jobs.get(i);
                pending.add(new JobRequest(j.id(), j.user(), j.tasks(), j.perTask(), j.submitTime(), j.priority(),
                        predictor.predict(j), j.trueDurationS()));
            }
            SchedulingContext ctx = new SchedulingContext(now, pending, cluster, running, Map.of());
            long t0 = System.nanoTime();
            int n = policy.decide(ctx).placements().size();
            long dt = System.nanoTime() - t0;
            if (t >= 0) {
                ms[t] = dt / 1e6;
                // n placements, plus the final "wait" unless the round ran out of jobs that fit.
                perDecision[t] = ms[t] / (n + 1);
                placed += n;
            }
        }
        Arrays.sort(ms);
        Arrays.sort(perDecision);
        int p99 = (int) Math.ceil(0.99 * TRIALS) - 1;
        return new Result(nodeCount, pendingCount, ms[TRIALS / 2], ms[p99], ms[TRIALS - 1], perDecision[TRIALS / 2],
                perDecision[p99], placed / TRIALS);
    }
}
