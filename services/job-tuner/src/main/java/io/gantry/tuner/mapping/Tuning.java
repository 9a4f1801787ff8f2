package io.gantry.tuner.mapping;

import io.gantry.events.JobResult;
import io.gantry.events.JobSubmitted;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import io.gantry.scheduling.tuning.RealTrainingTuner;
import io.gantry.scheduling.tuning.RunnerProfile;
import io.gantry.scheduling.tuning.TrainingTuner;
import java.util.ArrayList;
import java.util.List;

/** The one place job-tuner turns events into the core tuners' inputs, and their changes back into events. */
public final class Tuning {

    private Tuning() {
    }

    /** A trace job on {@code gpus} GPUs as submitted; {@code options} null: predict it without changing it. */
    public static TrainingTuner.Request request(JobSubmitted job, int gpus, TuningOptions options) {
        TrainingTuner.Bounds bounds = options == null ? new TrainingTuner.Bounds(false, null, null, null)
                : new TrainingTuner.Bounds(true, options.minBatchSize(), options.maxBatchSize(), options.maxGpus());
        return new TrainingTuner.Request(job.model(), gpus, job.batchSize(), job.epochs(), bounds);
    }

    /** A real training job's spec as the real-training tuner reads it. */
    public static RealTrainingTuner.Spec spec(TrainingSpec spec) {
        return new RealTrainingTuner.Spec(spec.modelKey(), spec.optimizer(), spec.learningRate(), spec.batchSize(),
                spec.epochs(), spec.target() == null ? null : spec.target().metric(),
                spec.target() == null ? null : spec.target().value());
    }

    /** The bounds a job's tuning options put on the real-training tuner. */
    public static RealTrainingTuner.Bounds bounds(TuningOptions o) {
        return new RealTrainingTuner.Bounds(o.enabled(), o.minBatchSize(), o.maxBatchSize());
    }

    /** The core's changes as the events' (a list the caller may add to). */
    public static List<TuningChange> changes(List<io.gantry.scheduling.tuning.TuningChange> changes) {
        List<TuningChange> out = new ArrayList<>();
        for (io.gantry.scheduling.tuning.TuningChange c : changes) {
            out.add(new TuningChange(c.field(), c.from(), c.to(), c.reason()));
        }
        return out;
    }

    /**
     * A runner's result as a profile run; {@code spec} (null when unknown) gives its dataset, and its optimiser and
     * target for results of runners older than JobResult's own {@code optimizer} and {@code target}. A resumed
     * attempt's epochs are left out of the time profile: its wall time covers only that attempt; so are a re-tuned
     * run's, whose epochs trained at more than one batch size (and whose wall time covers its last restart only).
     */
    public static RunnerProfile.Run run(JobResult r, TrainingSpec spec) {
        String optimizer = r.optimizer() != null ? r.optimizer() : spec == null ? "" : spec.optimizer();
        TrainingTarget target = r.optimizer() != null ? r.target() : spec == null ? null : spec.target();
        boolean whole = r.attempt() == 1 && !r.retuned();
        return new RunnerProfile.Run(r.jobId() + "#" + r.attempt(), r.modelKey(),
                spec == null ? "" : spec.dataset(), optimizer, target == null ? "" : target.metric(),
                target == null ? null : target.value(), r.batchSize(), r.learningRate(), whole ? r.epochsRun() : 0,
                whole ? r.targetReachedEpoch() : null, r.wallSeconds(), r.meanSamplesPerSecond(), r.peakRssBytes(),
                r.cpuSeconds());
    }
}
