package io.gantry.scheduling.pollux;

import java.util.Arrays;
import java.util.List;

/**
 * Pollux's cluster-wide objective for one scheduling round (Pollux §4.2, eq. 6–7, and adaptdl's
 * {@code simulator/pollux.py}, {@code Problem._evaluate}): an allocation matrix {@code state[j][n]} (GPUs of job j
 * on node n) is worth the power mean with exponent {@code p} (the fairness knob; −1 in the paper's evaluation) of
 * each job's scaled speedup:
 * <pre>
 *   SPEEDUP_j(A_j) = max_M goodput_j(A_j, M) ÷ max_M goodput_j(a_fair, M)
 *   scaled_j = SPEEDUP_j · (GPUs per replica ÷ cluster GPUs) · nodes     (a whole node's share gives 1)
 *   scaled_j ·= max(age_j − restarts_j·30 s, 0) ÷ (age_j + 30 s)  when A_j differs from the current allocation
 *   FITNESS_p = ( Σ_j (scaled_j + 10⁻³)^p ÷ J )^(1/p)
 * </pre>
 * The fair allocation is {@code ceil(cluster GPUs ÷ J)} GPUs on {@code ceil(nodes ÷ cluster GPUs)} node(s), as
 * in {@code pollux.py}; the 10⁻³ keeps a job with no GPUs from making the mean 0 outright, so the optimiser still
 * tells allocations apart. p = 0 is the geometric mean.
 */
public final class PolluxFitness {

    /** What the objective needs of one job this round. */
    public record JobView(String id, GoodputOptimizer goodput, int epoch, double baseGoodput, double restartFactor,
                          int[] current, int maxReplicas, boolean pinned) {
    }

    static final double RESTART_DELAY_S = 30;
    private static final double FLOOR = 1e-3;

    private final List<JobView> jobs;
    private final double p;
    private final double shareScale;
    /** speedup[j][replicas * (nodes + 1) + spanned nodes], NaN until computed. */
    private final double[][] speedups;
    private final int maxNodes;

    /**
     * @param clusterGpus every GPU in the cluster; {@code nodes} how many nodes there are
     */
    public PolluxFitness(List<JobView> jobs, int nodes, int clusterGpus, double p) {
        this.jobs = List.copyOf(jobs);
        this.p = p;
        this.shareScale = (double) nodes / clusterGpus;
        this.maxNodes = nodes;
        this.speedups = new double[jobs.size()][];
        for (int j = 0; j < jobs.size(); j++) {
            speedups[j] = new double[(jobs.get(j).maxReplicas() + 1) * (nodes + 1)];
            Arrays.fill(speedups[j], Double.NaN);
        }
    }

    /** The fair-share goodput a job's speedup is relative to, for {@code jobCount} jobs on this cluster. */
    public static double fairGoodput(GoodputOptimizer goodput, int epoch, int jobCount, int nodes, int clusterGpus) {
        int replicas = (int) Math.ceil((double) clusterGpus / Math.max(1, jobCount));
        int fairNodes = (int) Math.ceil((double) nodes / clusterGpus);
        return goodput.best(fairNodes, Math.max(1, replicas), epoch).goodput();
    }

    /** Pollux's restart discount for a job of {@code ageS} seconds that has restarted {@code restarts} times. */
    public static double restartFactor(double ageS, int restarts) {
        return Math.max(ageS - restarts * RESTART_DELAY_S, 0) / (ageS + RESTART_DELAY_S);
    }

    public List<JobView> jobs() {
        return jobs;
    }

    /** Each job's scaled speedup under {@code state}, restart discount included. */
    public double[] scaledSpeedups(int[][] state) {
        double[] out = new double[jobs.size()];
        for (int j = 0; j < out.length; j++) {
            int replicas = 0;
            int spanned = 0;
            for (int g : state[j]) {
                replicas += g;
                spanned += g > 0 ? 1 : 0;
            }
            double s = speedup(j, spanned, replicas) * shareScale;
            if (!Arrays.equals(state[j], jobs.get(j).current())) {
                s *= jobs.get(j).restartFactor();
            }
            out[j] = s;
        }
        return out;
    }

    /** FITNESS_p of {@code state}; higher is better. */
    public double evaluate(int[][] state) {
        if (jobs.isEmpty()) {
            return 0;
        }
        double[] s = scaledSpeedups(state);
        if (p == 0) {
            double logs = 0;
            for (double v : s) {
                logs += Math.log(Math.max(v, FLOOR));
            }
            return Math.exp(logs / s.length);
        }
        double sum = 0;
        for (double v : s) {
            sum += Math.pow(v + FLOOR, p);
        }
        return Math.pow(sum / s.length, 1 / p);
    }

    /** Unscaled speedup of job j on {@code replicas} GPUs over {@code nodes} nodes (0 with no GPUs). */
    double speedup(int j, int nodes, int replicas) {
        if (replicas == 0) {
            return 0;
        }
        JobView v = jobs.get(j);
        int r = Math.min(replicas, v.maxReplicas());
        int idx = r * (maxNodes + 1) + Math.min(nodes, maxNodes);
        double cached = speedups[j][idx];
        if (Double.isNaN(cached)) {
            cached = v.goodput().best(nodes, r, v.epoch()).goodput() / v.baseGoodput();
            speedups[j][idx] = cached;
        }
        return cached;
    }
}
