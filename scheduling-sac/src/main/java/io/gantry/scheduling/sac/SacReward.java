package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reward of SAC, in one place for offline training ({@link EpisodeRecorder}) and online learning
 * ({@link OnlineTransitions}). The reward of a decision is earned between its time and the next decision's:
 * −∫ (jobs pending or running) dt ÷ {@link SacSettings#rewardScaleJobSeconds()}, plus the optional balance and
 * fairness terms of {@link SacSettings}, whose values are taken at the decision ({@link Terms}) and held until
 * the next one.
 */
public final class SacReward {

    /** The optional terms as measured at a decision; zero when their weight is off. */
    public record Terms(double nodeCv, double waitUnfairness) {
        public static final Terms NONE = new Terms(0, 0);
    }

    private SacReward() {
    }

    /** Measures what the optional terms need, only for the terms that are switched on. */
    static Terms measure(SacSettings settings, double now, TentativeCluster cluster, List<JobRequest> pending) {
        if (settings.balanceWeight() <= 0 && settings.fairnessWeight() <= 0) {
            return Terms.NONE;
        }
        double cv = settings.balanceWeight() > 0 ? gpuAllocationCv(cluster) : 0;
        double unfair = settings.fairnessWeight() > 0 ? 1 - waitJain(now, pending) : 0;
        return new Terms(cv, unfair);
    }

    /** The reward of one decision whose interval lasted {@code dt} and held {@code jobSeconds} of jobs in the system. */
    public static double reward(SacSettings settings, double jobSeconds, Terms terms, double dt) {
        return -jobSeconds / settings.rewardScaleJobSeconds()
                - settings.balanceWeight() * terms.nodeCv() * dt / 3600.0
                - settings.fairnessWeight() * terms.waitUnfairness() * dt / 3600.0;
    }

    /**
     * ∫ (jobs in the system) dt between consecutive boundaries, exactly: a job is in the system from its submit
     * time to its finish time ({@code +∞} while it has not finished).
     *
     * @param boundaries ascending times; the answer has one entry per interval, {@code boundaries.length − 1}
     */
    public static double[] jobSecondsBetween(double[] boundaries, double[] submits, double[] finishes) {
        int jobs = submits.length;
        double[] times = new double[2 * jobs];
        int[] deltas = new int[2 * jobs];
        Integer[] order = new Integer[times.length];
        for (int k = 0; k < jobs; k++) {
            times[2 * k] = submits[k];
            deltas[2 * k] = 1;
            times[2 * k + 1] = finishes[k];
            deltas[2 * k + 1] = -1;
        }
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Double.compare(times[a], times[b]));
        // Sweep: jobs in the system over time, integrated up to each boundary.
        int n = boundaries.length;
        double[] integralAt = new double[n];
        int e = 0;
        int inSystem = 0;
        double t = Double.NEGATIVE_INFINITY;
        double integral = 0;
        for (int i = 0; i < n; i++) {
            while (e < order.length && times[order[e]] <= boundaries[i]) {
                if (t != Double.NEGATIVE_INFINITY) {
                    integral += inSystem * (times[order[e]] - t);
                }
                t = times[order[e]];
                inSystem += deltas[order[e]];
                e++;
            }
            if (t != Double.NEGATIVE_INFINITY) {
                integral += inSystem * (boundaries[i] - t);
                t = boundaries[i];
            }
            integralAt[i] = integral;
        }
        double[] between = new double[Math.max(0, n - 1)];
        for (int i = 0; i + 1 < n; i++) {
            between[i] = integralAt[i + 1] - integralAt[i];
        }
        return between;
    }

    private static double gpuAllocationCv(TentativeCluster c) {
        int n = c.size();
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            long capGpu = c.nodes().capacity(i).gpuMilli();
            double a = TentativeCluster.ratio(capGpu - c.nodes().free(i).gpuMilli(), capGpu);
            sum += a;
            sq += a * a;
        }
        double mean = sum / n;
        return mean <= 0 ? 0 : Math.sqrt(Math.max(0, sq / n - mean * mean)) / mean;
    }

    /** Jain's index over tenants of the mean wait of their pending jobs; 1 when one tenant or nobody waits. */
    private static double waitJain(double now, List<JobRequest> pending) {
        Map<String, double[]> byTenant = new HashMap<>();
        for (JobRequest j : pending) {
            double[] acc = byTenant.computeIfAbsent(j.user(), k -> new double[2]);
            acc[0] += now - j.submitTime();
            acc[1]++;
        }
        double sum = 0;
        double sq = 0;
        for (double[] acc : byTenant.values()) {
            double x = acc[0] / acc[1];
            sum += x;
            sq += x * x;
        }
        return sq <= 0 ? 1 : sum * sum / (byTenant.size() * sq);
    }
}
