package io.gantry.events;

import java.time.Instant;

/**
 * A user asks Gantry to run a training job. Published on {@code gantry.jobs.submitted} keyed by {@code jobId}.
 *
 * @param tasks      pods in the gang (all start together or none does)
 * @param perTask    what each pod requests
 * @param model      the model being trained (e.g. {@code cifar10}); null when unknown (the Alibaba trace has none)
 * @param batchSize  total batch size; null when not a tunable training job
 * @param epochs     epochs to train; null when not a tunable training job
 * @param durationS  expected run time in seconds when known (trace replays know it; the simulated cluster
 *                   runs the pod that long); null otherwise
 * @param tuning     what the tuner may change; null means {@link TuningOptions#DEFAULT}
 * @param preemptible false: once it runs, Gantry never stops it to make room (its pods were made outside Gantry,
 *                   whose owner decides what replaces them, or the user asks so); absent on the wire means true
 */
public record JobSubmitted(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        String jobName,
        String model,
        int tasks,
        ResourceAmounts perTask,
        Integer batchSize,
        Integer epochs,
        Double durationS,
        TuningOptions tuning,
        Boolean preemptible) implements GantryEvent {

    public static final String TYPE = "JobSubmitted";

    public JobSubmitted {
        preemptible = preemptible == null || preemptible;
    }

    /** A job Gantry may preempt. */
    public JobSubmitted(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, String jobName,
                        String model, int tasks, ResourceAmounts perTask, Integer batchSize, Integer epochs,
                        Double durationS, TuningOptions tuning) {
        this(eventId, schemaVersion, occurredAt, jobId, user, jobName, model, tasks, perTask, batchSize, epochs,
                durationS, tuning, true);
    }

    @Override
    public String key() {
        return jobId;
    }

    public TuningOptions tuningOrDefault() {
        return tuning == null ? TuningOptions.DEFAULT : tuning;
    }

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.user("user", user);
        v.lengthIfPresent("jobName", jobName, Limits.MAX_NAME_LENGTH);
        v.lengthIfPresent("model", model, Limits.MAX_NAME_LENGTH);
        v.within("tasks", tasks, 1, Limits.MAX_TASKS);
        v.perTask("perTask", perTask);
        v.withinIfPresent("batchSize", batchSize, 1, Limits.MAX_BATCH_SIZE);
        v.withinIfPresent("epochs", epochs, 1, Limits.MAX_EPOCHS);
        v.durationIfPresent("durationS", durationS);
        if (tuning != null) {
            tuning.check(v);
        }
    }
}
