package io.gantry.scheduling.tuning;

import io.gantry.scheduling.model.JobRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * How an adaptive job trains, as the simulator times it: every epoch at the batch its {@link RetunePlan} chooses for
 * its GPU count (a batch-size change at an epoch boundary costs nothing), progressing at the <em>measured</em>
 * goodput of that batch on its actual placement ({@code PolluxAppProfile.goodput}), so the fitted models' error shows
 * in the results, as for the one-time tuner's jobs. Each new allocation costs Pollux's 30 s re-scale delay.
 */
final class AdaptiveTraining extends EpochwiseTraining {

    private final Function<JobRequest, RetunePlan> plans;
    /** Measured rates by plan, placement, epoch: the same few configurations recur in every replay. */
    private final Map<RetunePlan, Map<String, Double>> rates = new HashMap<>();

    AdaptiveTraining(Function<JobRequest, RetunePlan> plans) {
        this.plans = plans;
    }

    @Override
    protected int epochs(JobRequest job) {
        return plans.apply(job).epochs();
    }

    @Override
    protected double progressAt(JobRequest job, int epoch) {
        return plans.apply(job).progressAt(epoch);
    }

    @Override
    protected double rate(JobRequest job, int[] placement, int epoch) {
        RetunePlan plan = plans.apply(job);
        String key = java.util.Arrays.toString(placement) + "@" + epoch;
        return rates.computeIfAbsent(plan, p -> new HashMap<>()).computeIfAbsent(key, k -> {
            int gpus = java.util.Arrays.stream(placement).sum();
            int batch = plan.batchFor(gpus, epoch);
            // Only a job left as submitted can run on more GPUs than any candidate spreads over: it takes the largest.
            return plan.measured().goodput(placement, batch < 0 ? plan.largestCandidate() : batch, epoch);
        });
    }
}
