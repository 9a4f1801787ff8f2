package io.gantry.scheduling.tuning;

import io.gantry.scheduling.tuning.ProfileMeasurements.EpochRow;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Epochs needed to reach a validation metric, from the measured validation curves (Pollux's
 * {@code get_best_metric} / {@code get_completion_epoch}). After e epochs at total batch M the job has the best
 * metric seen in its first e epochs, interpolated linearly between the validated batches around M; the metric
 * improves upwards (accuracy, F1) or downwards (loss, WER) as the curves themselves show. An epoch is a fixed amount
 * of statistical progress, the smallest progress any validation run had at the end of that epoch (Pollux's
 * {@code get_progress}), so fewer epochs means less training whatever the batch.
 */
public final class ConvergenceModel {

    private final NavigableMap<Integer, List<EpochRow>> runs;
    private final boolean higherIsBetter;
    private final int epochsMeasured;

    public ConvergenceModel(NavigableMap<Integer, List<EpochRow>> validation) {
        this.runs = new TreeMap<>(validation);
        List<EpochRow> first = runs.firstEntry().getValue();
        this.higherIsBetter = first.get(0).metric() < first.get(first.size() - 1).metric();
        this.epochsMeasured = runs.values().stream().mapToInt(List::size).min().orElseThrow();
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** Epochs every validated batch was measured for: no prediction is made past them. */
    public int epochsMeasured() {
        return epochsMeasured;
    }

    /** The total batch sizes that have a validation run. */
    public java.util.Set<Integer> validatedBatches() {
        return runs.keySet();
    }

    /** Statistical progress at the end of {@code epochs} epochs. */
    public double progressAt(int epochs) {
        if (epochs <= 0) {
            return 0;
        }
        double min = Double.POSITIVE_INFINITY;
        for (List<EpochRow> rows : runs.values()) {
            min = Math.min(min, rows.get(Math.min(epochs, rows.size()) - 1).progress());
        }
        return min;
    }

    /** The best validation metric after {@code epochs} epochs at total batch {@code batch}. */
    public double bestMetric(double batch, int epochs) {
        if (epochs < 1) {
            throw new IllegalArgumentException("epochs must be at least 1");
        }
        double b = Math.max(runs.firstKey(), Math.min(runs.lastKey(), batch));
        Map.Entry<Integer, List<EpochRow>> lo = runs.floorEntry((int) Math.floor(b));
        Map.Entry<Integer, List<EpochRow>> hi = runs.ceilingEntry((int) Math.ceil(b));
        double l = best(lo.getValue(), epochs);
        if (lo.getKey().equals(hi.getKey())) {
            return l;
        }
        double w = (b - lo.getKey()) / (hi.getKey() - lo.getKey());
        return l + w * (best(hi.getValue(), epochs) - l);
    }

    /** True when {@code metric} is at least as good as {@code target}. */
    public boolean reaches(double metric, double target) {
        return higherIsBetter ? metric >= target : metric <= target;
    }

    /**
     * What a run that trained at each of {@code batches} for {@code epochs} epochs is credited with: the worst of what
     * a whole run at each reaches (a mixed run is taken to be no better than its worst batch); NaN for none.
     */
    public double worstMetric(Iterable<Integer> batches, int epochs) {
        double worst = Double.NaN;
        for (int b : batches) {
            double m = bestMetric(b, epochs);
            if (Double.isNaN(worst) || !reaches(m, worst)) {
                worst = m;
            }
        }
        return worst;
    }

    /** The fewest epochs (≤ {@code maxEpochs}) after which batch {@code batch} reaches {@code target}; 0 when it never does. */
    public int epochsToReach(double batch, double target, int maxEpochs) {
        int limit = Math.min(maxEpochs, epochsMeasured);
        for (int e = 1; e <= limit; e++) {
            if (reaches(bestMetric(batch, e), target)) {
                return e;
            }
        }
        return 0;
    }

    private double best(List<EpochRow> rows, int epochs) {
        double best = higherIsBetter ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        for (int i = 0; i < Math.min(epochs, rows.size()); i++) {
            best = higherIsBetter ? Math.max(best, rows.get(i).metric()) : Math.min(best, rows.get(i).metric());
        }
        return best;
    }
}
