package io.gantry.scheduling.tuning;

import io.gantry.scheduling.tuning.ProfileMeasurements.EpochRow;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Statistical efficiency as a function of total batch size, from the gradient noise scale (McCandlish et al. 2018,
 * as used by Pollux): with {@code grad_sqr} = |g|² and {@code grad_var} = tr(Σ) measured at the initial batch M₀,
 * a batch M = s·M₀ makes {@code gain(M) = (var + sqr) ÷ (var/s + sqr)} initial-batch iterations of progress per
 * iteration, and efficiency {@code E(M) = gain ÷ s} ∈ (0, 1]. With the noise scale {@code B_noise = M₀·var ÷ sqr},
 * {@code E(M) = (B_noise + M₀) ÷ (B_noise + M)}: larger batches lose little while M ≪ B_noise.
 *
 * <p>The gradient statistics change with the batch used and with training progress, so they are taken per epoch from
 * the validation runs and interpolated between validated batches linearly in log(batch) (clamped to the validated
 * range); Pollux interpolates linearly in the batch. The held-out test predicts each interior validation file's
 * measured progress per iteration from its neighbours only.
 */
public final class EfficiencyModel {

    private final int initBatch;
    private final NavigableMap<Integer, List<EpochRow>> runs;

    public EfficiencyModel(NavigableMap<Integer, List<EpochRow>> validation) {
        if (validation.isEmpty()) {
            throw new IllegalArgumentException("no validation runs");
        }
        this.runs = new TreeMap<>(validation);
        this.initBatch = runs.firstKey();
    }

    public int initBatch() {
        return initBatch;
    }

    /** {grad_sqr, grad_var} during {@code epoch} (0-based) at total batch {@code batch}. */
    public double[] gradStats(double batch, int epoch) {
        double b = Math.max(runs.firstKey(), Math.min(runs.lastKey(), batch));
        Map.Entry<Integer, List<EpochRow>> lo = runs.floorEntry((int) Math.floor(b));
        Map.Entry<Integer, List<EpochRow>> hi = runs.ceilingEntry((int) Math.ceil(b));
        EpochRow l = row(lo.getValue(), epoch);
        EpochRow h = row(hi.getValue(), epoch);
        if (lo.getKey().equals(hi.getKey())) {
            return new double[] {l.gradSqr(), l.gradVar()};
        }
        double w = Math.log(b / lo.getKey()) / Math.log((double) hi.getKey() / lo.getKey());
        return new double[] {l.gradSqr() + w * (h.gradSqr() - l.gradSqr()), l.gradVar() + w * (h.gradVar() - l.gradVar())};
    }

    /** Initial-batch iterations of progress made by one iteration at {@code batch} during {@code epoch}. */
    public double gain(double batch, int epoch) {
        double[] g = gradStats(batch, epoch);
        double scale = batch / initBatch;
        return (g[1] + g[0]) / (g[1] / scale + g[0]);
    }

    /** Statistical efficiency relative to the initial batch: 1 at M₀, falling as the batch outgrows the noise scale. */
    public double efficiency(double batch, int epoch) {
        return gain(batch, epoch) / (batch / initBatch);
    }

    /** McCandlish's simple noise scale in samples, M₀·tr(Σ) ÷ |g|², during {@code epoch} at {@code batch}. */
    public double noiseScale(double batch, int epoch) {
        double[] g = gradStats(batch, epoch);
        return initBatch * g[1] / g[0];
    }

    private static EpochRow row(List<EpochRow> rows, int epoch) {
        return rows.get(Math.min(epoch, rows.size() - 1));
    }
}
