package io.gantry.scheduling.sim;

import io.gantry.scheduling.fairness.TenantServiceMeter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The headline numbers of one replay.
 * <ul>
 *   <li>JCT = finish − submit; queueing = JCT − own run time (waiting before the start plus time preempted).</li>
 *   <li>Slowdown = JCT ÷ run time, with the run time floored at 1 s so sub-second jobs do not dominate.</li>
 *   <li>Percentiles by nearest rank.</li>
 *   <li>Jain's index over tenants of their normalised service ({@link TenantServiceMeter}): GPU-seconds
 *       allocated ÷ GPU-seconds of max-min fair share (capped by demand), over the time the tenant had jobs in
 *       the system, capped at 1; 1 when every tenant got the same fraction of its fair share.</li>
 *   <li>Finish-time fairness (Themis, NSDI'20): ρ = JCT ÷ the JCT on a private 1/T slice of the cluster
 *       (T tenants), which is the run time stretched by GPUs ÷ (cluster GPUs ÷ T) when the job needs more
 *       than the slice. Reported: the largest tenant mean of ρ.</li>
 *   <li>Restarts: {@link RestartMetrics}.</li>
 * </ul>
 */
public record RunMetrics(int jobs, double avgJctS, double p50JctS, double p95JctS, double p99JctS, double avgQueueS,
                         double avgSlowdown, double makespanS, double gpuAllocRatio, double nodeCv,
                         double jainFairness, double jainWhileWaiting, double maxFtfRho, RestartMetrics restarts) {

    static final double SLOWDOWN_FLOOR_S = 1.0;

    public static RunMetrics of(SimulationResult r, double clusterGpus) {
        List<JobOutcome> out = r.outcomes();
        int n = out.size();
        if (n == 0) {
            return new RunMetrics(0, 0, 0, 0, 0, 0, 0, 0, r.gpuAllocRatio(), r.nodeCv(),
                    TenantServiceMeter.jainIndex(r.tenantService()),
                    TenantServiceMeter.jainIndexWhileWaiting(r.tenantService()), 1, RestartMetrics.of(out));
        }
        double[] jct = new double[n];
        double sumJct = 0;
        double sumQueue = 0;
        double sumSlow = 0;
        double firstSubmit = Double.POSITIVE_INFINITY;
        double lastFinish = Double.NEGATIVE_INFINITY;
        Map<String, double[]> tenants = new HashMap<>();
        for (int i = 0; i < n; i++) {
            JobOutcome o = out.get(i);
            jct[i] = o.jctS();
            sumJct += jct[i];
            sumQueue += o.queueS();
            sumSlow += jct[i] / Math.max(o.durationS(), SLOWDOWN_FLOOR_S);
            firstSubmit = Math.min(firstSubmit, o.submit());
            lastFinish = Math.max(lastFinish, o.finish());
            tenants.computeIfAbsent(o.user(), k -> new double[2]);
        }
        int t = tenants.size();
        double slice = clusterGpus / t;
        for (JobOutcome o : out) {
            double[] acc = tenants.get(o.user());
            double run = Math.max(o.durationS(), SLOWDOWN_FLOOR_S);
            double isolated = run * Math.max(1.0, o.gpus() / slice);
            acc[0] += Math.max(o.jctS(), run) / isolated;
            acc[1] += 1;
        }
        double maxRho = 0;
        for (double[] acc : tenants.values()) {
            maxRho = Math.max(maxRho, acc[0] / acc[1]);
        }
        Arrays.sort(jct);
        return new RunMetrics(n, sumJct / n, percentile(jct, 50), percentile(jct, 95), percentile(jct, 99), sumQueue / n,
                sumSlow / n, lastFinish - firstSubmit, r.gpuAllocRatio(), r.nodeCv(),
                TenantServiceMeter.jainIndex(r.tenantService()),
                TenantServiceMeter.jainIndexWhileWaiting(r.tenantService()), maxRho, RestartMetrics.of(out));
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
