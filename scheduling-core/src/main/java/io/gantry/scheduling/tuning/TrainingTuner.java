package io.gantry.scheduling.tuning;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Chooses total batch size, epochs and GPU count for a training job of a profiled model.
 *
 * <p>Target: the validation metric the job would reach as submitted (its batch, its epochs, read from the measured
 * curves). A configuration is acceptable only if the curves say it reaches that target, so tuning never trades
 * accuracy away. For each GPU count up to the cap, the batch (validated batch sizes and the submitted one, within the
 * user's bounds) with the shortest predicted time to target is taken, with the fewest epochs that reach it; that
 * maximises goodput integrated over the training. GPU count: {@link ScaleOutRule}, every GPU added must do at least
 * {@link Settings#minScalingEfficiency()} of one GPU's work ("scale-out only where it pays"); the cap is
 * the user's {@code maxGpus}, or else the GPUs requested (the tuner never asks for more than the user did unless
 * allowed), and never more than the profile's largest batch (each GPU needs a sample of it). If nothing acceptable is
 * found the job stays as submitted, and says why.
 */
public final class TrainingTuner {

    /**
     * @param minScalingEfficiency smallest share of one GPU's work an added GPU must do to be worth it
     *                             ({@link ScaleOutRule})
     * @param gpusPerNode          GPUs per node, for packed placements
     */
    public record Settings(double minScalingEfficiency, int gpusPerNode) {
        /**
         * 0.7 was chosen on {@code workloads-0.5/} (swept 0.3–1.0; bench/README.md, Tuner) when the threshold applied
         * to the average over a job's GPUs; it is kept, not swept again, now that it applies to each GPU added.
         */
        public static final Settings DEFAULT = new Settings(0.7, 4);

        public Settings {
            if (!(minScalingEfficiency > 0 && minScalingEfficiency <= 1) || gpusPerNode < 1) {
                throw new IllegalArgumentException("minScalingEfficiency in (0, 1] and gpusPerNode ≥ 1");
            }
        }
    }

    /** User bounds; null means unbounded. {@code enabled = false}: do not tune. */
    public record Bounds(boolean enabled, Integer minBatchSize, Integer maxBatchSize, Integer maxGpus) {
        public static final Bounds NONE = new Bounds(true, null, null, null);
    }

    /** @param epochs null means the model's default (Pollux's max_epochs) */
    public record Request(String model, int gpus, int batchSize, Integer epochs, Bounds bounds) {
    }

    /**
     * @param predictedSeconds run time predicted by the fitted models (NaN when the model is unknown)
     * @param targetMetric     what the job as submitted reaches (NaN when unknown)
     * @param predictedMetric  what the tuned configuration reaches (NaN when unknown)
     */
    public record Result(int gpus, int batchSize, int epochs, double predictedSeconds, double targetMetric,
                         double predictedMetric, List<TuningChange> changes, String summary) {
        public boolean changed() {
            return !changes.isEmpty();
        }
    }

    private final Map<String, GoodputModel> models;
    private final Settings settings;

    public TrainingTuner(Map<String, GoodputModel> models, Settings settings) {
        this.models = new TreeMap<>(models);
        this.settings = settings;
    }

    /** Fits a model for every application folder under {@code appProfilesDir}. */
    public static TrainingTuner fromProfiles(Path appProfilesDir, Settings settings) {
        Map<String, GoodputModel> models = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(appProfilesDir)) {
            for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
                models.put(d.getFileName().toString(), GoodputModel.load(d));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot list " + appProfilesDir, e);
        }
        return new TrainingTuner(models, settings);
    }

    public Map<String, GoodputModel> models() {
        return models;
    }

    public Settings settings() {
        return settings;
    }

    public Result tune(Request job) {
        GoodputModel m = job.model() == null ? null : models.get(job.model());
        int epochs = job.epochs() != null ? job.epochs() : m != null ? m.defaultEpochs() : 0;
        if (!job.bounds().enabled()) {
            return unchanged(job, epochs, m, "not tuned: the submitter switched tuning off");
        }
        if (m == null) {
            return unchanged(job, epochs, null, "not tuned: no measured profile for model '" + job.model() + "' (known: "
                    + String.join(", ", models.keySet()) + ")");
        }
        ConvergenceModel conv = m.convergence();
        int submittedEpochs = Math.min(epochs, conv.epochsMeasured());
        double target = conv.bestMetric(job.batchSize(), submittedEpochs);
        if (job.bounds().maxGpus() != null && job.bounds().maxGpus() == 0) {
            return unchanged(job, epochs, m, "not tuned: maxGpus = 0 leaves no GPU to train on");
        }
        // No count above the profile's largest batch can matter: each GPU needs a sample of the batch
        // (GoodputModel.feasible), so the loops below stay small whatever a user asks for.
        int cap = Math.min(Math.max(1, job.bounds().maxGpus() != null ? job.bounds().maxGpus() : job.gpus()), m.maxBatch());
        TreeSet<Integer> batches = new TreeSet<>(m.convergence().validatedBatches());
        batches.add(job.batchSize());
        int lo = job.bounds().minBatchSize() != null ? job.bounds().minBatchSize() : Integer.MIN_VALUE;
        int hi = job.bounds().maxBatchSize() != null ? job.bounds().maxBatchSize() : Integer.MAX_VALUE;
        batches.removeIf(b -> b < lo || b > hi);
        Choice[] best = bestPerGpuCount(m, batches, target, submittedEpochs, cap);
        double[] seconds = new double[cap + 1];
        for (int n = 0; n <= cap; n++) {
            seconds[n] = best[n] == null ? Double.NaN : best[n].seconds;
        }
        int gpus = ScaleOutRule.gpus(seconds, settings.minScalingEfficiency());
        if (gpus == 0) {
            return unchanged(job, epochs, m, "not tuned: no configuration within the bounds is predicted to reach the target "
                    + fmt(target));
        }
        Choice chosen = best[gpus];
        double submittedSeconds = m.feasible(job.gpus(), job.batchSize())
                ? m.predictSeconds(job.gpus(), perNode(m), job.batchSize(), submittedEpochs) : Double.NaN;
        double reached = conv.bestMetric(chosen.batch, chosen.epochs);
        List<TuningChange> changes = changes(job, m, epochs, target, seconds, chosen);
        String summary = changes.isEmpty() ? "unchanged: the submitted configuration is already the best found"
                : String.format(Locale.ROOT, "tuned: predicted %.0f s to metric %s (target %s)%s", chosen.seconds, fmt(reached),
                fmt(target), Double.isNaN(submittedSeconds) ? "" : String.format(Locale.ROOT, " instead of %.0f s as submitted",
                        submittedSeconds));
        return new Result(chosen.gpus, chosen.batch, chosen.epochs, chosen.seconds, target, reached, changes, summary);
    }

    /**
     * For each GPU count n in 1..{@code cap}, the batch with the shortest predicted time to {@code target} on n GPUs
     * (with the fewest epochs that reach it); null where no batch is feasible or reaches the target.
     */
    private Choice[] bestPerGpuCount(GoodputModel m, TreeSet<Integer> batches, double target, int submittedEpochs,
                                     int cap) {
        ConvergenceModel conv = m.convergence();
        // Epochs to the target depend on the batch alone, not on the GPU count.
        Map<Integer, Integer> epochsToTarget = new TreeMap<>();
        for (int b : batches) {
            epochsToTarget.put(b, conv.epochsToReach(b, target, Math.max(submittedEpochs, conv.epochsMeasured())));
        }

        Choice[] best = new Choice[cap + 1];
        for (int n = 1; n <= cap; n++) {
            for (int b : batches) {
                int e = epochsToTarget.get(b);
                if (e == 0 || !m.feasible(n, b)) {
                    continue;
                }
                double t = m.predictSeconds(n, perNode(m), b, e);
                if (best[n] == null || t < best[n].seconds) {
                    best[n] = new Choice(n, b, e, t);
                }
            }
        }
        return best;
    }

    /** The changes from the submitted job to {@code chosen}, each with why ({@code seconds}: predicted, by GPU count). */
    private List<TuningChange> changes(Request job, GoodputModel m, int epochs, double target, double[] seconds,
                                       Choice chosen) {
        List<TuningChange> changes = new ArrayList<>();
        if (chosen.gpus != job.gpus()) {
            int next = Math.min(seconds.length - 1, chosen.gpus + 1);
            String why = chosen.gpus < job.gpus()
                    ? String.format(Locale.ROOT, "a GPU added beyond %d is predicted to do less than %.0f%% of one GPU's "
                    + "work (%d GPUs: %.0f%%)", chosen.gpus, 100 * settings.minScalingEfficiency(), next,
                    100 * ScaleOutRule.marginalEfficiency(seconds, chosen.gpus, next))
                    : String.format(Locale.ROOT, "each GPU up to %d does at least %.0f%% of one GPU's work, within maxGpus %d",
                    chosen.gpus, 100 * settings.minScalingEfficiency(), seconds.length - 1);
            changes.add(new TuningChange("gpus", Integer.toString(job.gpus()), Integer.toString(chosen.gpus), why));
        }
        if (chosen.batch != job.batchSize()) {
            changes.add(new TuningChange("batchSize", Integer.toString(job.batchSize()), Integer.toString(chosen.batch),
                    String.format(Locale.ROOT, "highest goodput to the target on %d GPUs: statistical efficiency %.2f at the "
                            + "start (noise scale %.0f samples), %.2f s per step", chosen.gpus,
                            m.efficiency().efficiency(chosen.batch, 0), m.efficiency().noiseScale(chosen.batch, 0),
                            m.stepSecondsAndBatch(chosen.gpus, perNode(m), chosen.batch)[0])));
        }
        if (chosen.epochs != epochs) {
            changes.add(new TuningChange("epochs", Integer.toString(epochs), Integer.toString(chosen.epochs),
                    String.format(Locale.ROOT, "the validation curves reach the target %s after %d epochs at batch %d",
                            fmt(target), chosen.epochs, chosen.batch)));
        }
        return changes;
    }

    private record Choice(int gpus, int batch, int epochs, double seconds) {
    }

    /** The GPUs per node {@code m} predicts with: the cluster's, within its profile's data. */
    private int perNode(GoodputModel m) {
        return m.gpusPerNodeWithinData(settings.gpusPerNode());
    }

    private Result unchanged(Request job, int epochs, GoodputModel m, String summary) {
        double seconds = Double.NaN;
        double metric = Double.NaN;
        if (m != null && epochs >= 1) {
            int e = Math.min(epochs, m.convergence().epochsMeasured());
            metric = m.convergence().bestMetric(job.batchSize(), e);
            if (m.feasible(job.gpus(), job.batchSize())) {
                seconds = m.predictSeconds(job.gpus(), perNode(m), job.batchSize(), e);
            }
        }
        return new Result(job.gpus(), job.batchSize(), epochs, seconds, metric, metric, List.of(), summary);
    }

    private static String fmt(double metric) {
        return String.format(Locale.ROOT, "%.4g", metric);
    }
}
