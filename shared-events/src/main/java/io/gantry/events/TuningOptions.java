package io.gantry.events;

/**
 * What the submitter allows the tuner to change. Null bounds mean "no bound from the user". Batch bounds are 1 to
 * {@link Limits#MAX_BATCH_SIZE}, {@code maxGpus} 0 to {@link Limits#MAX_GPUS}.
 *
 * @param enabled false means "do not tune": the job passes through exactly as submitted
 */
public record TuningOptions(boolean enabled, Integer minBatchSize, Integer maxBatchSize, Integer maxGpus) {
    public static final TuningOptions DEFAULT = new TuningOptions(true, null, null, null);

    void check(Violations v) {
        v.withinIfPresent("tuning.minBatchSize", minBatchSize, 1, Limits.MAX_BATCH_SIZE);
        v.withinIfPresent("tuning.maxBatchSize", maxBatchSize, 1, Limits.MAX_BATCH_SIZE);
        v.withinIfPresent("tuning.maxGpus", maxGpus, 0, Limits.MAX_GPUS);
        if (minBatchSize != null && maxBatchSize != null && minBatchSize > maxBatchSize) {
            v.add("tuning.maxBatchSize", "must not be below tuning.minBatchSize");
        }
    }
}
