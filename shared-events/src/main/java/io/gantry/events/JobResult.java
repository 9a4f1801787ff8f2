package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The outcome of a real training run, published by {@code job-runner} on {@code gantry.jobs.lifecycle} (keyed by job
 * id) when its training ends, just before it exits 0; the dispatcher then announces {@link JobCompleted}. Not terminal
 * by itself: consumers that only follow a job's state ignore it. One attempt publishes at most one.
 *
 * @param attempt              the attempt (1 for the first run; a run resumed after preemption counts on)
 * @param testAccuracy         accuracy of the final weights on the test split, 0 to 1
 * @param testLoss             mean cross-entropy on the test split
 * @param confusionMatrix      {@code [true class][predicted class]} counts on the test split
 * @param targetReachedEpoch   the first epoch (1-based) at whose end the spec's target was met; null if never or no target
 * @param epochsRun            epochs trained over all attempts (a resumed run counts the epochs before its checkpoint)
 * @param peakRssBytes         the runner process's peak resident set ({@code VmHWM}) of this attempt
 * @param cpuSeconds           CPU time (user + system) of this attempt's process
 * @param wallSeconds          wall time of this attempt, start to result
 * @param meanSamplesPerSecond training samples per second of wall time spent in training steps, this attempt
 * @param modelKey             {@link TrainingSpec#modelKey()} of the spec: groups repeat runs of one model
 * @param batchSize            the batch size the run used (of its last epoch, when it was re-tuned while it ran)
 * @param learningRate         the learning rate the run used
 * @param optimizer            the optimiser the run used ({@link TrainingSpec#OPTIMIZERS}); null (absent) from a runner
 *                             that predates the field
 * @param target               the target the run trained to (metric and value; {@code targetReachedEpoch} counts to
 *                             it); null (absent) when the spec had none or the runner predates the field
 * @param epochBatchSizes      the batch size of every epoch trained, epoch 1 first, over all attempts ({@code epochsRun}
 *                             entries): more than one value when the job was re-tuned while it ran; null (absent) from a
 *                             runner that predates the field
 */
public record JobResult(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        int attempt,
        double testAccuracy,
        double testLoss,
        int[][] confusionMatrix,
        Integer targetReachedEpoch,
        int epochsRun,
        long peakRssBytes,
        double cpuSeconds,
        double wallSeconds,
        double meanSamplesPerSecond,
        String modelKey,
        int batchSize,
        double learningRate,
        @JsonInclude(JsonInclude.Include.NON_NULL) String optimizer,
        @JsonInclude(JsonInclude.Include.NON_NULL) TrainingTarget target,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> epochBatchSizes) implements LifecycleEvent {

    public static final String TYPE = "JobResult";

    public JobResult {
        epochBatchSizes = epochBatchSizes == null ? null : List.copyOf(epochBatchSizes);
    }

    /** A result that does not list its epochs' batch sizes (as written before that field). */
    public JobResult(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, int attempt,
                     double testAccuracy, double testLoss, int[][] confusionMatrix, Integer targetReachedEpoch,
                     int epochsRun, long peakRssBytes, double cpuSeconds, double wallSeconds,
                     double meanSamplesPerSecond, String modelKey, int batchSize, double learningRate, String optimizer,
                     TrainingTarget target) {
        this(eventId, schemaVersion, occurredAt, jobId, user, attempt, testAccuracy, testLoss, confusionMatrix,
                targetReachedEpoch, epochsRun, peakRssBytes, cpuSeconds, wallSeconds, meanSamplesPerSecond, modelKey,
                batchSize, learningRate, optimizer, target, null);
    }

    /** True when its epochs trained at more than one batch size (the job was re-tuned while it ran). */
    @JsonIgnore
    public boolean retuned() {
        return epochBatchSizes != null && epochBatchSizes.stream().distinct().count() > 1;
    }

    /** A result that does not say its optimiser or target (as written before those fields). */
    public JobResult(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, int attempt,
                     double testAccuracy, double testLoss, int[][] confusionMatrix, Integer targetReachedEpoch,
                     int epochsRun, long peakRssBytes, double cpuSeconds, double wallSeconds,
                     double meanSamplesPerSecond, String modelKey, int batchSize, double learningRate) {
        this(eventId, schemaVersion, occurredAt, jobId, user, attempt, testAccuracy, testLoss, confusionMatrix,
                targetReachedEpoch, epochsRun, peakRssBytes, cpuSeconds, wallSeconds, meanSamplesPerSecond, modelKey,
                batchSize, learningRate, null, null);
    }

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.userIfPresent("user", user);
        v.atLeast("attempt", attempt, 1);
        v.between("testAccuracy", testAccuracy, 0.0, 1.0);
        v.atLeast("testLoss", testLoss, 0.0);
        if (v.present("confusionMatrix", confusionMatrix)) {
            int n = confusionMatrix.length;
            if (n < 1 || n > Limits.MAX_TRAINING_UNITS) {
                v.add("confusionMatrix", "must have 1 to " + Limits.MAX_TRAINING_UNITS + " rows, had " + n);
            } else {
                for (int i = 0; i < n; i++) {
                    if (confusionMatrix[i] == null || confusionMatrix[i].length != n) {
                        v.add("confusionMatrix[" + i + "]", "must have " + n + " columns (square matrix)");
                    } else if (Arrays.stream(confusionMatrix[i]).anyMatch(c -> c < 0)) {
                        v.add("confusionMatrix[" + i + "]", "counts must be >= 0");
                    }
                }
            }
        }
        v.withinIfPresent("targetReachedEpoch", targetReachedEpoch, 1, Limits.MAX_TRAINING_EPOCHS);
        v.within("epochsRun", epochsRun, 0, Limits.MAX_TRAINING_EPOCHS);
        v.atLeast("peakRssBytes", peakRssBytes, 0);
        v.finiteSeconds("cpuSeconds", cpuSeconds);
        v.finiteSeconds("wallSeconds", wallSeconds);
        v.atLeast("meanSamplesPerSecond", meanSamplesPerSecond, 0.0);
        v.notBlank("modelKey", modelKey);
        v.textIfPresent("modelKey", modelKey, 64);
        v.within("batchSize", batchSize, 1, Limits.MAX_TRAINING_BATCH_SIZE);
        if (!(learningRate > 0 && learningRate <= Limits.MAX_TRAINING_LEARNING_RATE)) {
            v.add("learningRate", "must be above 0 and at most " + Limits.MAX_TRAINING_LEARNING_RATE + ", was " + learningRate);
        }
        if (optimizer != null && !TrainingSpec.OPTIMIZERS.contains(optimizer)) {
            v.add("optimizer", "must be one of " + String.join(", ", TrainingSpec.OPTIMIZERS) + ", was '" + optimizer + "'");
        }
        if (target != null) {
            target.check("target", v);
        }
        if (epochBatchSizes != null) {
            if (epochBatchSizes.size() != epochsRun) {
                v.add("epochBatchSizes", "must have one entry per epoch run (" + epochsRun + "), had "
                        + epochBatchSizes.size());
            }
            for (int i = 0; i < epochBatchSizes.size(); i++) {
                v.withinIfPresent("epochBatchSizes[" + i + "]", epochBatchSizes.get(i), 1, Limits.MAX_TRAINING_BATCH_SIZE);
            }
        }
    }

    // A record's equals compares arrays by identity: compare the matrix by content so decoded == encoded.
    @Override
    public boolean equals(Object o) {
        return o instanceof JobResult r && eventId.equals(r.eventId) && schemaVersion == r.schemaVersion
                && java.util.Objects.equals(occurredAt, r.occurredAt) && java.util.Objects.equals(jobId, r.jobId)
                && java.util.Objects.equals(user, r.user) && attempt == r.attempt
                && Double.compare(testAccuracy, r.testAccuracy) == 0 && Double.compare(testLoss, r.testLoss) == 0
                && Arrays.deepEquals(confusionMatrix, r.confusionMatrix)
                && java.util.Objects.equals(targetReachedEpoch, r.targetReachedEpoch) && epochsRun == r.epochsRun
                && peakRssBytes == r.peakRssBytes && Double.compare(cpuSeconds, r.cpuSeconds) == 0
                && Double.compare(wallSeconds, r.wallSeconds) == 0
                && Double.compare(meanSamplesPerSecond, r.meanSamplesPerSecond) == 0
                && java.util.Objects.equals(modelKey, r.modelKey) && batchSize == r.batchSize
                && Double.compare(learningRate, r.learningRate) == 0
                && java.util.Objects.equals(optimizer, r.optimizer) && java.util.Objects.equals(target, r.target)
                && java.util.Objects.equals(epochBatchSizes, r.epochBatchSizes);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(eventId, jobId, attempt, testAccuracy, Arrays.deepHashCode(confusionMatrix));
    }

    @Override
    public String toString() {
        return "JobResult[jobId=" + jobId + ", attempt=" + attempt + ", testAccuracy=" + testAccuracy + ", testLoss="
                + testLoss + ", confusionMatrix=" + Arrays.deepToString(confusionMatrix) + ", targetReachedEpoch="
                + targetReachedEpoch + ", epochsRun=" + epochsRun + ", peakRssBytes=" + peakRssBytes + ", cpuSeconds="
                + cpuSeconds + ", wallSeconds=" + wallSeconds + ", modelKey=" + modelKey + ", optimizer=" + optimizer
                + ", target=" + target + ", epochBatchSizes=" + epochBatchSizes + "]";
    }
}
