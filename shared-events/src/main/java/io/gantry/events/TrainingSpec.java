package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a real training job trains: the optional {@code training} object of {@link JobSubmitted} and {@link JobTuned}.
 * A job without it is a trace job (the simulated cluster sleeps for its {@code durationS}); a job with it runs
 * {@code job-runner}, which builds {@code model}, trains it on {@code dataset} and reports {@link JobProgress} and
 * {@link JobResult}.
 *
 * @param model        the network, see {@link ModelGraph}
 * @param dataset      one of {@link #DATASETS} (files in {@code ../shared/datasets})
 * @param optimizer    {@code sgd} (momentum 0.9) or {@code adam}
 * @param learningRate above 0 and at most {@link Limits#MAX_TRAINING_LEARNING_RATE}
 * @param batchSize    samples per step, 1 to {@link Limits#MAX_TRAINING_BATCH_SIZE}
 * @param epochs       passes over the training split, 1 to {@link Limits#MAX_TRAINING_EPOCHS}
 * @param seed         seeds the weights, the shuffling and dropout: one seed, one result
 * @param target       where the run may stop early; null: it runs all {@code epochs}
 */
public record TrainingSpec(
        ModelGraph model,
        String dataset,
        String optimizer,
        Double learningRate,
        Integer batchSize,
        Integer epochs,
        Long seed,
        TrainingTarget target) {

    public static final List<String> DATASETS = List.of("digits", "iris", "wine", "breast-cancer");
    public static final List<String> OPTIMIZERS = List.of("sgd", "adam");

    /** The same run with other hyper-parameters (what the tuner changes). */
    public TrainingSpec with(int batchSize, double learningRate, int epochs) {
        return new TrainingSpec(model, dataset, optimizer, learningRate, batchSize, epochs, seed, target);
    }

    /**
     * A stable fingerprint of the model graph and the dataset (not of the hyper-parameters or the seed), so repeat
     * runs of one model can be grouped: the first 16 hex digits of the SHA-256 of a canonical text of layers (in their
     * order, parameters sorted by name), edges (in their order) and dataset.
     */
    @JsonIgnore
    public String modelKey() {
        StringBuilder b = new StringBuilder("dataset=").append(dataset).append('\n');
        if (model != null) {
            for (ModelGraph.Layer l : model.layers()) {
                b.append("layer ").append(l.id()).append(' ').append(l.type());
                new TreeMap<>(l.params()).forEach((k, val) -> b.append(' ').append(k).append('=').append(canonical(val)));
                b.append('\n');
            }
            for (ModelGraph.Edge e : model.edges()) {
                b.append("edge ").append(e.from()).append(' ').append(e.to()).append('\n');
            }
        }
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String canonical(Object v) {
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue())) {
            return String.valueOf(n.longValue());
        }
        return v instanceof Map<?, ?> m ? new TreeMap<>(m).toString() : String.valueOf(v);
    }

    void check(String field, Violations v) {
        if (v.present(field + ".model", model)) {
            model.check(field + ".model", v);
        }
        if (v.notBlank(field + ".dataset", dataset) && !DATASETS.contains(dataset)) {
            v.add(field + ".dataset", "unknown dataset; must be one of " + String.join(", ", DATASETS));
        }
        if (v.notBlank(field + ".optimizer", optimizer) && !OPTIMIZERS.contains(optimizer)) {
            v.add(field + ".optimizer", "must be one of " + String.join(", ", OPTIMIZERS));
        }
        if (v.present(field + ".learningRate", learningRate)
                && !(learningRate > 0 && learningRate <= Limits.MAX_TRAINING_LEARNING_RATE)) {
            v.add(field + ".learningRate", "must be above 0 and at most " + Limits.MAX_TRAINING_LEARNING_RATE
                    + ", was " + learningRate);
        }
        if (v.present(field + ".batchSize", batchSize)) {
            v.within(field + ".batchSize", batchSize, 1, Limits.MAX_TRAINING_BATCH_SIZE);
        }
        if (v.present(field + ".epochs", epochs)) {
            v.within(field + ".epochs", epochs, 1, Limits.MAX_TRAINING_EPOCHS);
        }
        v.present(field + ".seed", seed);
        if (target != null) {
            target.check(field + ".target", v);
        }
    }
}
