package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * The job as it will be queued, after the tuner. Published on {@code gantry.jobs.tuned} keyed by {@code jobId}.
 *
 * @param submittedAt        when the job was submitted (the {@code JobSubmitted} event's time)
 * @param changes            every change the tuner made, each with its reason; empty when nothing changed
 * @param predictedDurationS the tuner's prediction of the run time; null when it has none
 * @param preemptible        the submission's {@link JobSubmitted#preemptible()}; absent on the wire means true
 * @param training           the submission's {@link JobSubmitted#training()} with the tuner's hyper-parameters; null
 *                           (absent) for a trace job
 * @param revision           0 for the tuning before the job is queued (absent on the wire, as from a tuner that predates
 *                           re-tuning, means 0); 1, 2, ... for re-tunes of the job while it runs ({@link #retune()}),
 *                           each a whole JobTuned that replaces the one before. A consumer applies a revision once and
 *                           ignores one at or below the revision it already holds (a redelivery or a stale update), so
 *                           updates are idempotent; the scheduler queues a job by its revision 0 only
 */
public record JobTuned(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        String jobName,
        String model,
        Instant submittedAt,
        int tasks,
        ResourceAmounts perTask,
        Integer batchSize,
        Integer epochs,
        Double durationS,
        Double predictedDurationS,
        List<TuningChange> changes,
        String summary,
        Boolean preemptible,
        @JsonInclude(JsonInclude.Include.NON_NULL) TrainingSpec training,
        Integer revision) implements JobEvent {

    public static final String TYPE = "JobTuned";

    public JobTuned {
        changes = changes == null ? List.of() : List.copyOf(changes);
        preemptible = preemptible == null || preemptible;
        revision = revision == null ? 0 : revision;
    }

    /** The tuning before the job is queued (revision 0). */
    public JobTuned(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, String jobName,
                    String model, Instant submittedAt, int tasks, ResourceAmounts perTask, Integer batchSize,
                    Integer epochs, Double durationS, Double predictedDurationS, List<TuningChange> changes,
                    String summary, Boolean preemptible, TrainingSpec training) {
        this(eventId, schemaVersion, occurredAt, jobId, user, jobName, model, submittedAt, tasks, perTask, batchSize,
                epochs, durationS, predictedDurationS, changes, summary, preemptible, training, 0);
    }

    /** True for an update of a running job (revision above 0), not a job to queue. */
    @JsonIgnore
    public boolean retune() {
        return revision > 0;
    }

    /** A job without a training spec. */
    public JobTuned(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, String jobName,
                    String model, Instant submittedAt, int tasks, ResourceAmounts perTask, Integer batchSize,
                    Integer epochs, Double durationS, Double predictedDurationS, List<TuningChange> changes,
                    String summary, Boolean preemptible) {
        this(eventId, schemaVersion, occurredAt, jobId, user, jobName, model, submittedAt, tasks, perTask, batchSize,
                epochs, durationS, predictedDurationS, changes, summary, preemptible, null);
    }

    /** A job Gantry may preempt. */
    public JobTuned(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user, String jobName,
                    String model, Instant submittedAt, int tasks, ResourceAmounts perTask, Integer batchSize,
                    Integer epochs, Double durationS, Double predictedDurationS, List<TuningChange> changes,
                    String summary) {
        this(eventId, schemaVersion, occurredAt, jobId, user, jobName, model, submittedAt, tasks, perTask, batchSize,
                epochs, durationS, predictedDurationS, changes, summary, true);
    }

    @Override
    public void checkBody(Violations v) {
        v.jobId("jobId", jobId);
        v.user("user", user);
        v.textIfPresent("jobName", jobName, Limits.MAX_NAME_LENGTH);
        v.textIfPresent("model", model, Limits.MAX_NAME_LENGTH);
        v.present("submittedAt", submittedAt);
        v.within("tasks", tasks, 1, Limits.MAX_TASKS);
        v.perTask("perTask", perTask);
        v.withinIfPresent("batchSize", batchSize, 1, Limits.MAX_BATCH_SIZE);
        v.withinIfPresent("epochs", epochs, 1, Limits.MAX_EPOCHS);
        v.durationIfPresent("durationS", durationS);
        v.finiteSeconds("predictedDurationS", predictedDurationS);
        if (training != null) {
            training.check("training", v);
        }
        v.atLeast("revision", revision, 0);
        if (revision > 0 && training == null) {
            v.add("revision", "a re-tune (revision above 0) is of a real training job: training is required");
        }
    }
}
