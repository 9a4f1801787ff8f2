package io.gantry.ingest.service;

import io.gantry.events.JobProgress;

/** Which {@code JobProgress} field each {@code gantry_job_*} figure reads. */
final class TrainingFigures {

    private TrainingFigures() {
    }

    /** The training loss: {@code loss}. */
    static Double trainLoss(JobProgress p) {
        return p.loss();
    }

    /** The validation loss: not reported by this version of JobProgress. */
    static Double validationLoss(JobProgress p) {
        return null;
    }

    /** The (validation) accuracy: {@code accuracy}. */
    static Double accuracy(JobProgress p) {
        return p.accuracy();
    }
}
