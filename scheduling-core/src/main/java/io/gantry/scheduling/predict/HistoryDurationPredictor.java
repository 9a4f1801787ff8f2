package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;

/**
 * Helios-style history predictor: the mean run time of the last {@value SubmissionHistory#WINDOW} finished jobs of
 * the same user with the same shape (tasks × per-task request); failing that, of the same user; failing that, of
 * everyone. Recent jobs only, because a user's workload drifts (Helios, SC'21, §5).
 */
public final class HistoryDurationPredictor implements DurationPredictor {

    private final SubmissionHistory history = new SubmissionHistory();

    @Override
    public double predict(JobRequest job) {
        return history.mostSpecificMean(job);
    }

    @Override
    public void observe(JobRequest job, double runSeconds) {
        history.finished(job, runSeconds);
    }
}
