package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * Training progress reported by a running job; metrics it cannot report are null. {@code job-runner} publishes one at
 * least at every epoch end and at most once a second.
 *
 * @param progress           fraction of the planned work done, 0 to 1 (epochs done / epochs planned, within an epoch by steps)
 * @param epoch              epochs completed so far (1-based count; 0 before the first ends)
 * @param loss               the latest training loss (equal to {@code trainLoss} when the runner reports)
 * @param accuracy           the accuracy the run is judged by: from {@code job-runner}, at an epoch end of a run whose
 *                           target is {@code test_accuracy}, the test accuracy measured there (the last one equals
 *                           {@link JobResult#testAccuracy()}); otherwise the latest validation accuracy
 * @param samplesPerSecond   training throughput since the previous report
 * @param step               optimiser steps done over the whole run; null when unknown
 * @param trainLoss          mean training loss of the epoch so far; null when unknown
 * @param validationLoss     loss on the validation split at the last epoch end; null before the first
 * @param validationAccuracy accuracy on the validation split at the last epoch end; null before the first
 * @param batchSize          the batch size of the steps this report counts: at an epoch end, the batch size that epoch
 *                           trained at (a re-tuned job changes it at an epoch boundary); null (absent) from a runner
 *                           that predates the field, or when unknown
 */
public record JobProgress(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        double progress,
        Integer epoch,
        Double loss,
        Double accuracy,
        Double samplesPerSecond,
        Long step,
        Double trainLoss,
        Double validationLoss,
        Double validationAccuracy,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer batchSize) implements LifecycleEvent {

    public static final String TYPE = "JobProgress";

    /** Progress that does not say its batch size (as written before that field). */
    public JobProgress(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, double progress,
                       Integer epoch, Double loss, Double accuracy, Double samplesPerSecond, Long step,
                       Double trainLoss, Double validationLoss, Double validationAccuracy) {
        this(eventId, schemaVersion, occurredAt, jobId, user, progress, epoch, loss, accuracy, samplesPerSecond, step,
                trainLoss, validationLoss, validationAccuracy, null);
    }

    /** Progress with the epoch-level metrics only. */
    public JobProgress(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, double progress,
                       Integer epoch, Double loss, Double accuracy, Double samplesPerSecond) {
        this(eventId, schemaVersion, occurredAt, jobId, user, progress, epoch, loss, accuracy, samplesPerSecond, null,
                null, null, null);
    }

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.userIfPresent("user", user);
        v.between("progress", progress, 0.0, 1.0);
        v.withinIfPresent("epoch", epoch, 0, Limits.MAX_EPOCHS);
        if (step != null) {
            v.atLeast("step", step, 0);
        }
        if (validationAccuracy != null) {
            v.between("validationAccuracy", validationAccuracy, 0.0, 1.0);
        }
        if (samplesPerSecond != null) {
            v.atLeast("samplesPerSecond", samplesPerSecond, 0.0);
        }
        v.withinIfPresent("batchSize", batchSize, 1, Limits.MAX_TRAINING_BATCH_SIZE);
    }
}
