package io.gantry.scheduling.tuning;

import io.gantry.scheduling.tuning.ProfileMeasurements.StepSample;
import java.util.List;
import java.util.function.Predicate;

/**
 * Seconds per iteration as a function of placement and per-GPU batch, in Pollux's parametric form (Qiao et al.,
 * OSDI'21, §3.2): compute time {@code T_grad(m) = αc + βc·m} for per-GPU batch m; synchronisation time 0 on one
 * GPU, {@code αr + βr·(K−2)} for K GPUs on one node and {@code αn + βn·(K−2)} across nodes; and the two overlap as
 * {@code T_iter = (T_grad^γ + T_sync^γ)^(1/γ)}.
 *
 * <p>Fit: αc, βc by least squares on the single-GPU step times; the two sync lines by least squares on the measured
 * {@code sync_time} of the multi-GPU rows (one line per class; a class without rows borrows the other's); γ by grid
 * search over [1, 10] minimising the mean relative error of the multi-GPU step times. Closed-form pieces make the
 * fit deterministic and fast; the error it leaves is measured by {@link #meanRelativeError} and by the held-out
 * test in {@code ThroughputModelTest}.
 */
public record ThroughputModel(double computeAlpha, double computeBeta, double localSyncAlpha, double localSyncBeta,
                              double networkSyncAlpha, double networkSyncBeta, double gamma) {

    /** Compute time is never modelled below this, so a negative intercept cannot make a step free. */
    private static final double MIN_SECONDS = 1e-5;

    public static ThroughputModel fit(List<StepSample> samples) {
        double[] compute = line(samples, s -> s.replicas() == 1, StepSample::stepTime);
        if (compute == null) {
            throw new IllegalArgumentException("no single-GPU step times to fit compute time from");
        }
        double[] local = line(samples, s -> s.replicas() > 1 && s.nodes() == 1, StepSample::syncTime);
        double[] network = line(samples, s -> s.replicas() > 1 && s.nodes() > 1, StepSample::syncTime);
        if (local == null) {
            local = network;
        }
        if (network == null) {
            network = local;
        }
        if (local == null) {
            local = new double[] {0, 0};
            network = local;
        }
        ThroughputModel best = null;
        double bestError = Double.POSITIVE_INFINITY;
        for (double gamma = 1.0; gamma <= 10.0 + 1e-9; gamma += 0.1) {
            ThroughputModel m = new ThroughputModel(compute[0], compute[1], local[0], local[1], network[0], network[1], gamma);
            double err = meanRelativeError(m, samples.stream().filter(s -> s.replicas() > 1).toList());
            if (best == null || err < bestError) {
                best = m;
                bestError = err;
            }
        }
        return best;
    }

    public double computeSeconds(double localBsz) {
        return Math.max(MIN_SECONDS, computeAlpha + computeBeta * localBsz);
    }

    public double syncSeconds(int nodes, int replicas) {
        if (replicas <= 1) {
            return 0;
        }
        return nodes <= 1 ? Math.max(0, localSyncAlpha + localSyncBeta * (replicas - 2))
                : Math.max(0, networkSyncAlpha + networkSyncBeta * (replicas - 2));
    }

    /** Seconds per iteration with {@code replicas} GPUs over {@code nodes} nodes at per-GPU batch {@code localBsz}. */
    public double stepSeconds(int nodes, int replicas, double localBsz) {
        double compute = computeSeconds(localBsz);
        double sync = syncSeconds(nodes, replicas);
        if (sync == 0) {
            return compute;
        }
        return Math.pow(Math.pow(compute, gamma) + Math.pow(sync, gamma), 1 / gamma);
    }

    /** Mean of |predicted − measured| ÷ measured step time over {@code samples} (NaN when empty). */
    public static double meanRelativeError(ThroughputModel m, List<StepSample> samples) {
        double sum = 0;
        for (StepSample s : samples) {
            sum += Math.abs(m.stepSeconds(s.nodes(), s.replicas(), s.localBsz()) - s.stepTime()) / s.stepTime();
        }
        return samples.isEmpty() ? Double.NaN : sum / samples.size();
    }

    /** Least-squares {intercept, slope} of y over x = per-GPU batch (compute) or replicas − 2 (sync); null without rows. */
    private static double[] line(List<StepSample> samples, Predicate<StepSample> which,
                                 java.util.function.ToDoubleFunction<StepSample> y) {
        List<StepSample> rows = samples.stream().filter(which).toList();
        if (rows.isEmpty()) {
            return null;
        }
        boolean sync = rows.get(0).replicas() > 1;
        double n = rows.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (StepSample s : rows) {
            double x = sync ? s.replicas() - 2 : s.localBsz();
            double v = y.applyAsDouble(s);
            sx += x;
            sy += v;
            sxx += x * x;
            sxy += x * v;
        }
        double denom = n * sxx - sx * sx;
        if (Math.abs(denom) < 1e-12) {
            return new double[] {sy / n, 0};
        }
        double slope = (n * sxy - sx * sy) / denom;
        return new double[] {(sy - slope * sx) / n, slope};
    }
}
