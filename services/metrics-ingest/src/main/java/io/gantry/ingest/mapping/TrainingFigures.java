package io.gantry.ingest.mapping;

import io.gantry.events.JobProgress;

/** Which {@code JobProgress} field each {@code gantry_job_*} figure reads. */
public final class TrainingFigures {

    private TrainingFigures() {
    }

    /** The training loss: {@code trainLoss}, else {@code loss} (a reporter that fills only the epoch-level fields). */
    public static Double trainLoss(JobProgress p) {
        return p.trainLoss() != null ? p.trainLoss() : p.loss();
    }

    /** The validation loss: {@code validationLoss}. */
    public static Double validationLoss(JobProgress p) {
        return p.validationLoss();
    }

    /** The validation accuracy: {@code validationAccuracy}, else {@code accuracy}. */
    public static Double accuracy(JobProgress p) {
        return p.validationAccuracy() != null ? p.validationAccuracy() : p.accuracy();
    }
}
