package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;

/**
 * Not deployable: answers with the job's true run time, which only the simulator knows. It bounds what any duration
 * predictor can give a policy that ranks by predicted service (a replay with it is marked as an oracle in tables).
 */
public final class OracleDurationPredictor implements DurationPredictor {

    @Override
    public double predict(JobRequest job) {
        return job.trueDurationS();
    }

    @Override
    public void observe(JobRequest job, double runSeconds) {
        // Knows everything already.
    }
}
