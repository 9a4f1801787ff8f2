package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;

/**
 * Predicts a job's run time from what is known when it is submitted. The caller asks at submission
 * and reports each real run time when the job finishes, so a prediction never sees the future.
 */
public interface DurationPredictor {

    /** Seconds expected, or NaN when there is nothing to go on. */
    double predict(JobRequest job);

    /** A job finished after running {@code runSeconds} in total. */
    void observe(JobRequest job, double runSeconds);
}
