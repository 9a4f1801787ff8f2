package io.gantry.events;

import java.util.List;

/**
 * Where a training run may stop early: once {@code metric} reaches {@code value} at an epoch end.
 *
 * @param metric {@code validation_accuracy} (checked every epoch on the validation split) or {@code test_accuracy}
 *               (the runner evaluates the test split at every epoch end only to decide when to stop; the reported
 *               result is still the test accuracy of the final weights)
 * @param value  an accuracy, above 0 and at most 1
 */
public record TrainingTarget(String metric, Double value) {
    public static final String TEST_ACCURACY = "test_accuracy";
    public static final String VALIDATION_ACCURACY = "validation_accuracy";
    public static final List<String> METRICS = List.of(TEST_ACCURACY, VALIDATION_ACCURACY);

    void check(String field, Violations v) {
        if (v.notBlank(field + ".metric", metric) && !METRICS.contains(metric)) {
            v.add(field + ".metric", "must be one of " + String.join(", ", METRICS));
        }
        if (v.present(field + ".value", value) && !(value > 0 && value <= 1)) {
            v.add(field + ".value", "must be above 0 and at most 1, was " + value);
        }
    }
}
