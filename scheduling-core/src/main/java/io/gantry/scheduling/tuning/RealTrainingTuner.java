package io.gantry.scheduling.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Chooses batch size, learning rate and epochs of a real training job (one that runs the job runner) from what earlier
 * runs of the same model measured ({@link RunnerProfile}): for each batch size within the user's bounds that has runs at
 * the learning rate the scaling rule gives, the measured time to the target is its epochs to the target (the most any
 * such run needed) times its measured seconds per epoch (the median); the batch with the shortest time wins if it beats
 * the submitted configuration by at least {@link Settings#minGain()} (or the submitted one was never measured).
 *
 * <p>Learning-rate scaling: linear in the batch for SGD ({@code lr·B/B₀}, Goyal et al.), square root for Adam
 * ({@code lr·√(B/B₀)}), so the update per sample stays comparable; runs measured at another rate (±25 %), with
 * another optimiser or to another target (metric and value) do not count for a candidate, nor do runs whose optimiser
 * or target is unknown: epochs to 0.9 accuracy say nothing about epochs to 0.95. A batch whose matching runs include
 * one that missed the target is not a candidate, and a batch never measured is not either: the tuner picks only
 * configurations measured to reach the target.
 *
 * <p>Epochs: the run stops at the target (the spec's {@code target}), so epochs are only the budget: at least the user's,
 * raised to {@link Settings#epochMargin()} × the measured epochs to target when that is more. A spec without a target
 * is not tuned: there would be no accuracy the tuned run is bound to reach, and tuning never trades accuracy away.
 */
public final class RealTrainingTuner {

    /**
     * @param minGain     smallest fractional saving in time to target worth a change (0.1: 10 %)
     * @param epochMargin epoch budget over the measured epochs to target
     * @param maxEpochs   the contract's bound on epochs
     * @param maxLearningRate the contract's bound on the learning rate
     */
    public record Settings(double minGain, double epochMargin, int maxEpochs, double maxLearningRate) {
        public static final Settings DEFAULT = new Settings(0.10, 1.5, 1000, 10.0);

        public Settings {
            if (!(minGain >= 0 && minGain < 1) || epochMargin < 1 || maxEpochs < 1 || !(maxLearningRate > 0)) {
                throw new IllegalArgumentException("minGain in [0, 1), epochMargin ≥ 1, maxEpochs ≥ 1, maxLearningRate > 0");
            }
        }
    }

    /** What the user submitted. {@code targetValue} null: no target. */
    public record Spec(String modelKey, String optimizer, double learningRate, int batchSize, int epochs,
                       String targetMetric, Double targetValue) {
    }

    /** The user's bounds on the batch size; null is unbounded. {@code enabled = false}: do not tune. */
    public record Bounds(boolean enabled, Integer minBatchSize, Integer maxBatchSize) {
    }

    /**
     * @param predictedSeconds measured time to the target of the chosen configuration; NaN when unmeasured
     * @param submittedSeconds measured time to the target as submitted; NaN when unmeasured
     */
    public record Result(int batchSize, double learningRate, int epochs, double predictedSeconds,
                         double submittedSeconds, List<TuningChange> changes, String summary) {
        public boolean changed() {
            return !changes.isEmpty();
        }
    }

    /** Measured figures of one batch size at its scaled learning rate. */
    private record Candidate(int batch, double learningRate, int epochsToTarget, double secondsPerEpoch,
                             double samplesPerSecond, int runs) {
        double seconds() {
            return epochsToTarget * secondsPerEpoch;
        }
    }

    private final Settings settings;

    public RealTrainingTuner(Settings settings) {
        this.settings = settings;
    }

    /** The learning rate for batch {@code b} when the user chose {@code lr0} at {@code b0}. */
    public double scaledLearningRate(String optimizer, double lr0, int b0, int b) {
        double ratio = (double) b / b0;
        double lr = "adam".equals(optimizer) ? lr0 * Math.sqrt(ratio) : lr0 * ratio;
        return Math.min(settings.maxLearningRate(), lr);
    }

    public Result tune(Spec spec, Bounds bounds, List<RunnerProfile.Run> runs) {
        if (!bounds.enabled()) {
            return unchanged(spec, Double.NaN, "not tuned: the submitter switched tuning off");
        }
        if (spec.targetValue() == null) {
            return unchanged(spec, Double.NaN, "not tuned: the training spec has no target, so there is no accuracy a "
                    + "tuned run would be bound to reach");
        }
        TreeSet<Integer> batches = new TreeSet<>();
        runs.forEach(r -> batches.add(r.batchSize()));
        batches.add(spec.batchSize());
        int lo = bounds.minBatchSize() != null ? bounds.minBatchSize() : Integer.MIN_VALUE;
        int hi = bounds.maxBatchSize() != null ? bounds.maxBatchSize() : Integer.MAX_VALUE;
        List<String> missed = new ArrayList<>();
        TreeMap<Integer, Candidate> candidates = measuredCandidates(spec, batches, runs, missed);
        Candidate submitted = candidates.get(spec.batchSize());
        double submittedSeconds = submitted == null ? Double.NaN : submitted.seconds();
        Candidate best = null;
        for (Candidate c : candidates.values()) {
            if (c.batch() < lo || c.batch() > hi) {
                continue;
            }
            if (best == null || c.seconds() < best.seconds()) {
                best = c;
            }
        }
        String missedNote = missed.isEmpty() ? "" : "; batch " + String.join(", ", missed)
                + " excluded: a measured run there missed the target";
        if (best == null) {
            return unchanged(spec, submittedSeconds, "not tuned: no earlier run of model " + spec.modelKey()
                    + " with " + spec.optimizer() + " to " + spec.targetMetric() + " " + fmt(spec.targetValue())
                    + " within the bounds reached that target at the scaled learning rate" + missedNote);
        }
        if (submitted != null && (best.batch() == submitted.batch()
                || best.seconds() > (1 - settings.minGain()) * submitted.seconds())) {
            return unchanged(spec, submittedSeconds, String.format(Locale.ROOT, "unchanged: the submitted batch %d is "
                    + "measured at %.1f s to the target, no batch within the bounds is %.0f%% faster%s",
                    spec.batchSize(), submitted.seconds(), 100 * settings.minGain(), missedNote));
        }
        int epochs = Math.min(settings.maxEpochs(), Math.max(spec.epochs(),
                (int) Math.ceil(best.epochsToTarget() * settings.epochMargin())));
        List<TuningChange> changes = changes(spec, best, submitted, epochs);
        String summary = String.format(Locale.ROOT, "tuned: batch %d, learning rate %s, measured %.1f s to target %s%s",
                best.batch(), fmt(best.learningRate()), best.seconds(), fmt(spec.targetValue()),
                submitted == null ? "" : String.format(Locale.ROOT, " instead of %.1f s as submitted",
                        submitted.seconds()));
        return new Result(best.batch(), best.learningRate(), epochs, best.seconds(), submittedSeconds, changes, summary);
    }

    /**
     * The measured figures of every batch that has runs at its scaled learning rate, all of which reached the target;
     * batches with a matching run that missed the target are added to {@code missed} instead.
     */
    private TreeMap<Integer, Candidate> measuredCandidates(Spec spec, TreeSet<Integer> batches,
                                                           List<RunnerProfile.Run> runs, List<String> missed) {
        TreeMap<Integer, Candidate> candidates = new TreeMap<>();
        for (int b : batches) {
            double lr = scaledLearningRate(spec.optimizer(), spec.learningRate(), spec.batchSize(), b);
            List<RunnerProfile.Run> matching = runs.stream()
                    .filter(r -> r.batchSize() == b
                            && r.trainedLike(spec.optimizer(), spec.targetMetric(), spec.targetValue())
                            && Math.abs(r.learningRate() / lr - 1) <= 0.25 && r.epochsRun() > 0)
                    .toList();
            if (matching.isEmpty()) {
                continue;
            }
            if (matching.stream().anyMatch(r -> r.targetReachedEpoch() == null)) {
                missed.add(Integer.toString(b));
                continue;
            }
            int epochs = matching.stream().mapToInt(RunnerProfile.Run::targetReachedEpoch).max().orElseThrow();
            double spe = RunnerProfile.quantile(matching.stream().map(RunnerProfile.Run::secondsPerEpoch).toList(), 0.5);
            double sps = RunnerProfile.quantile(matching.stream().map(RunnerProfile.Run::samplesPerSecond).toList(), 0.5);
            candidates.put(b, new Candidate(b, lr, epochs, spe, sps, matching.size()));
        }
        return candidates;
    }

    /** The changes from the submitted spec to the chosen candidate {@code best} with an epoch budget of {@code epochs}. */
    private List<TuningChange> changes(Spec spec, Candidate best, Candidate submitted, int epochs) {
        List<TuningChange> changes = new ArrayList<>();
        String measured = String.format(Locale.ROOT, "%d measured run(s) at batch %d reach the target %s after at most "
                        + "%d epoch(s) of %.2f s (%.0f samples/s): %.1f s", best.runs(), best.batch(),
                fmt(spec.targetValue()), best.epochsToTarget(), best.secondsPerEpoch(), best.samplesPerSecond(),
                best.seconds());
        String versus = submitted == null ? ", the submitted batch was never measured"
                : String.format(Locale.ROOT, ", against %.1f s measured at the submitted batch %d", submitted.seconds(),
                submitted.batch());
        changes.add(new TuningChange("training.batchSize", Integer.toString(spec.batchSize()),
                Integer.toString(best.batch()), measured + versus));
        if (Math.abs(best.learningRate() - spec.learningRate()) > 1e-12) {
            changes.add(new TuningChange("training.learningRate", fmt(spec.learningRate()), fmt(best.learningRate()),
                    ("adam".equals(spec.optimizer()) ? "square-root" : "linear") + " scaling with the batch ("
                            + spec.batchSize() + " → " + best.batch() + ")"));
        }
        if (epochs != spec.epochs()) {
            changes.add(new TuningChange("training.epochs", Integer.toString(spec.epochs()), Integer.toString(epochs),
                    String.format(Locale.ROOT, "budget %.1f × the %d epochs measured to the target; the run stops at "
                            + "the target", settings.epochMargin(), best.epochsToTarget())));
        }
        return changes;
    }

    private static Result unchanged(Spec spec, double submittedSeconds, String summary) {
        return new Result(spec.batchSize(), spec.learningRate(), spec.epochs(), submittedSeconds, submittedSeconds,
                List.of(), summary);
    }

    private static String fmt(double v) {
        return new java.math.BigDecimal(Double.toString(v)).round(new java.math.MathContext(6)).stripTrailingZeros()
                .toPlainString();
    }
}
