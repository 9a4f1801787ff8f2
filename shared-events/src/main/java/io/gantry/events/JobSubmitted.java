package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A user asks Gantry to run a training job. Published on {@code gantry.jobs.submitted} keyed by {@code jobId}. Every
 * count, amount, run time and name has an upper bound, each with its reason in {@link Limits}; {@code jobId} and
 * {@code user} follow {@link Names}.
 *
 * @param jobId      at most {@link Limits#MAX_JOB_ID_LENGTH} characters, {@link Names#JOB_ID}
 * @param user       at most {@link Limits#MAX_USER_LENGTH} characters, {@link Names#USER}
 * @param jobName    free text, at most {@link Limits#MAX_NAME_LENGTH} characters; may be null
 * @param tasks      pods in the gang (all start together or none does), 1 to {@link Limits#MAX_TASKS}
 * @param perTask    what each pod requests, each amount at most its {@link Limits} bound
 * @param model      the model being trained (e.g. {@code cifar10}), at most {@link Limits#MAX_NAME_LENGTH} characters;
 *                   null when unknown (the Alibaba trace has none)
 * @param batchSize  total batch size, 1 to {@link Limits#MAX_BATCH_SIZE}; null when not a tunable training job
 * @param epochs     epochs to train, 1 to {@link Limits#MAX_EPOCHS}; null when not a tunable training job
 * @param durationS  expected run time in seconds when known (trace replays know it; the simulated cluster
 *                   runs the pod that long), finite, 0 to {@link Limits#MAX_DURATION_S} (366 days); null otherwise
 * @param tuning     what the tuner may change; null means {@link TuningOptions#DEFAULT}
 * @param preemptible false: once it runs, Gantry never stops it to make room (its pods were made outside Gantry,
 *                   whose owner decides what replaces them, or the user asks so); absent on the wire means true
 * @param training   what to train for real ({@link TrainingSpec}); null (absent) for a trace job, which behaves as
 *                   before training specs existed
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
        Boolean preemptible,
        @JsonInclude(JsonInclude.Include.NON_NULL) TrainingSpec training) implements JobEvent {

    public static final String TYPE = "JobSubmitted";

    public JobSubmitted {
        preemptible = preemptible == null || preemptible;
    }

    /** A job without a training spec. */
    public JobSubmitted(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, String jobName,
                        String model, int tasks, ResourceAmounts perTask, Integer batchSize, Integer epochs,
                        Double durationS, TuningOptions tuning, Boolean preemptible) {
        this(eventId, schemaVersion, occurredAt, jobId, user, jobName, model, tasks, perTask, batchSize, epochs,
                durationS, tuning, preemptible, null);
    }

    /** A job Gantry may preempt. */
    public JobSubmitted(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, String jobName,
                        String model, int tasks, ResourceAmounts perTask, Integer batchSize, Integer epochs,
                        Double durationS, TuningOptions tuning) {
        this(eventId, schemaVersion, occurredAt, jobId, user, jobName, model, tasks, perTask, batchSize, epochs,
                durationS, tuning, true);
    }

    public TuningOptions tuningOrDefault() {
        return tuning == null ? TuningOptions.DEFAULT : tuning;
    }

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.user("user", user);
        v.textIfPresent("jobName", jobName, Limits.MAX_NAME_LENGTH);
        v.textIfPresent("model", model, Limits.MAX_NAME_LENGTH);
        v.within("tasks", tasks, 1, Limits.MAX_TASKS);
        v.perTask("perTask", perTask);
        v.withinIfPresent("batchSize", batchSize, 1, Limits.MAX_BATCH_SIZE);
        v.withinIfPresent("epochs", epochs, 1, Limits.MAX_EPOCHS);
        v.durationIfPresent("durationS", durationS);
        if (tuning != null) {
            tuning.check(v);
        }
        if (training != null) {
            training.check("training", v);
        }
    }
}
