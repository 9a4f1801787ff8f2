package io.gantry.tuner.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobProgress;
import io.gantry.events.JobTuned;
import io.gantry.events.Limits;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import io.gantry.scheduling.tuning.RealTrainingTuner;
import io.gantry.tuner.mapping.Tuning;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Re-tunes real training jobs while they run (issue 21's live path): each re-tune is a {@code JobTuned} update, the
 * job's newest tuning with a revision one higher and a new batch size, a new GPU count per task, or both. A new batch
 * brings the learning rate scaled with it by the one-time tuner's own rule
 * ({@link RealTrainingTuner#scaledLearningRate}), so a live re-tune and the tuning before queueing agree on how the two
 * go together; the dispatcher carries it out by a checkpoint-restart of the job's runner, which changes the batch size
 * at an epoch boundary. A new GPU count changes what the job's pods ask of a node, which only a new placement can
 * honour: the scheduler stops the job with a checkpoint and places it again with the new {@code perTask}.
 *
 * <p>Two ways to a re-tune: the rule, at every epoch end a job's {@code JobProgress} reports, runs the one-time tuner's
 * choice ({@link RealTrainingTuner#tune}) again on the runs of the model known by then (results that came in while the
 * job ran) and re-tunes when it now picks another batch size; and an operator's explicit request ({@link #requested},
 * {@code POST /jobs/{id}/retune}). The rule re-tunes the batch only and keeps the job's GPUs: the measured runs it
 * reads pick a batch size, not a GPU count. Both stay within the submitter's bounds (batch, and {@code maxGpus} for
 * the job's GPUs), and neither touches a job whose submitter switched tuning off. The epoch budget is kept: the run
 * still stops at its target.
 *
 * <p>Like the rest of the tuner, nothing is stored: after a restart the jobs and their newest revisions are read back
 * from {@code gantry.jobs.tuned} ({@link #tuned}); their tuning options are not on that topic, so the rule leaves jobs
 * recovered that way alone (an explicit request still works, within no bounds but the contract's).
 */
@ApplicationScoped
public class LiveRetunes {

    static final int REMEMBERED_JOBS = 100_000;

    /** A job the tuner may re-tune: its newest tuning, its options (null when unknown) and the last epoch end seen. */
    private static final class Live {
        JobTuned tuned;
        TuningOptions options;
        int lastEpochEnd;

        Live(JobTuned tuned, TuningOptions options) {
            this.tuned = tuned;
            this.options = options;
        }
    }

    private final RealTrainingTuner realTuner;
    private final RunnerHistory history;
    private final RequestLimits limits;
    private final Map<String, Live> jobs = newestJobs();
    /**
     * Jobs that ended, newest last. A re-tune request is remembered ({@link #tuned}) only after Kafka took it, and the
     * job's end can be read in between: without this, that late {@code tuned} would bring the ended job back.
     */
    private final Set<String> ended = Collections.newSetFromMap(newestJobs());

    /** A map that keeps the {@value #REMEMBERED_JOBS} jobs put in last, so memory stays bounded. */
    private static <V> Map<String, V> newestJobs() {
        return new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > REMEMBERED_JOBS;
            }
        };
    }

    public LiveRetunes(JobTuner tuner) {
        this.realTuner = tuner.realTuner();
        this.history = tuner.history();
        this.limits = tuner.limits();
    }

    /** Remembers a training job's tuning (a newer revision replaces an older one); {@code options} null: unknown. */
    public synchronized void tuned(JobTuned t, TuningOptions options) {
        if (t.training() == null || ended.contains(t.jobId())) {
            return;
        }
        Live known = jobs.get(t.jobId());
        if (known == null) {
            jobs.put(t.jobId(), new Live(t, options));
        } else if (t.revision() > known.tuned.revision()) {
            known.tuned = t;
        }
    }

    /** The job ended: it is re-tuned no more. */
    public synchronized void ended(String jobId) {
        jobs.remove(jobId);
        ended.add(jobId);
    }

    /**
     * The rule: at a new epoch end of a job with tuning on and a target, the re-tune the measured runs now call for, if
     * they pick another batch size than the job's; empty otherwise.
     */
    public synchronized Optional<JobTuned> atProgress(JobProgress p) {
        Live live = jobs.get(p.jobId());
        if (live == null || live.options == null || !live.options.enabled() || p.epoch() == null) {
            return Optional.empty();
        }
        TrainingSpec spec = live.tuned.training();
        boolean epochEnd = Math.abs(p.progress() * spec.epochs() - p.epoch()) < 1e-9;
        if (!epochEnd || p.epoch() <= live.lastEpochEnd || p.epoch() >= spec.epochs() || spec.target() == null) {
            return Optional.empty();
        }
        live.lastEpochEnd = p.epoch();
        RealTrainingTuner.Result r = realTuner.tune(Tuning.spec(spec), Tuning.bounds(live.options),
                history.profile().runs(spec.modelKey()));
        if (!r.changed() || r.batchSize() == spec.batchSize()) {
            return Optional.empty();
        }
        live.tuned = update(live, r.batchSize(), live.tuned.perTask().gpuMilli(), String.format(Locale.ROOT,
                "re-tuned at the end of epoch %d by the measured runs known now: %s", p.epoch(), r.summary()));
        return Optional.of(live.tuned);
    }

    /**
     * An explicit re-tune of job {@code jobId} to {@code batchSize} and/or {@code gpus} whole GPUs per task (null:
     * keep the job's). Refused ({@link JobSubmissions.Refused}) with 404 for a job the tuner does not know as a real
     * training job that has not ended, 400 for neither given or a value outside the contract's or the submitter's
     * bounds, 409 when the submitter switched tuning off or the job's newest revision has both already (a revision
     * with nothing to carry out would only bury the job's real changes). The update becomes the job's newest tuning
     * once it is published and given to {@link #tuned}.
     */
    public synchronized JobTuned requested(String jobId, Integer batchSize, Integer gpus, String reason) {
        Live live = jobs.get(jobId);
        if (live == null) {
            throw new JobSubmissions.Refused(404, new Rejection("jobId", "'" + jobId + "' is not a real training job "
                    + "the tuner knows that has not ended: only those are re-tuned"));
        }
        TuningOptions o = live.options;
        if (o != null && !o.enabled()) {
            throw new JobSubmissions.Refused(409, new Rejection("jobId", "its submitter switched tuning off"));
        }
        if (batchSize == null && gpus == null) {
            throw new JobSubmissions.Refused(400, new Rejection("body", "needs batchSize, gpus or both"));
        }
        JobTuned t = live.tuned;
        if (batchSize != null) {
            checkBatch(o, batchSize);
        }
        if (gpus != null) {
            checkGpus(o, t.tasks(), gpus, limits.nodeGpuMilli());
        }
        int batch = batchSize != null ? batchSize : t.training().batchSize();
        long gpuMilli = gpus != null ? gpus * 1000L : t.perTask().gpuMilli();
        if (batch == t.training().batchSize() && gpuMilli == t.perTask().gpuMilli()) {
            throw new JobSubmissions.Refused(409, new Rejection("body", "changes nothing: revision " + t.revision()
                    + " already has batch size " + batch + " and " + count(gpuMilli) + " GPUs per task"));
        }
        return update(live, batch, gpuMilli, "re-tuned on request" + (reason == null || reason.isBlank() ? ""
                : ": " + reason));
    }

    /** A 400 on {@code batchSize} outside the contract's training batch sizes or the submitter's bounds. */
    private static void checkBatch(TuningOptions o, int batchSize) {
        int lo = o != null && o.minBatchSize() != null ? o.minBatchSize() : 1;
        int hi = Math.min(Limits.MAX_TRAINING_BATCH_SIZE, o != null && o.maxBatchSize() != null ? o.maxBatchSize()
                : Integer.MAX_VALUE);
        if (batchSize < lo || batchSize > hi) {
            throw new JobSubmissions.Refused(400, new Rejection("batchSize", "must be " + lo + " to " + hi
                    + (hi < Limits.MAX_TRAINING_BATCH_SIZE || lo > 1 ? " (the submitter's bounds)" : "")
                    + ", was " + batchSize));
        }
    }

    /**
     * A 400 on {@code gpus} outside the contract's task size, the largest node ({@code nodeGpuMilli}: a task larger
     * could never be placed, so the scheduler would keep the job as it runs) or the submitter's {@code maxGpus}, which
     * bounds the whole job ({@code tasks} × GPUs per task, as {@link RequestLimits} reads it at submission).
     */
    private static void checkGpus(TuningOptions o, int tasks, int gpus, long nodeGpuMilli) {
        int hi = (int) (Limits.MAX_GPU_MILLI_PER_TASK / 1000);
        String bound = "";
        if (nodeGpuMilli / 1000 < hi) {
            hi = (int) (nodeGpuMilli / 1000);
            bound = " (the largest node has " + hi + ")";
        }
        if (o != null && o.maxGpus() != null && o.maxGpus() / tasks < hi) {
            hi = o.maxGpus() / tasks;
            bound = " (the submitter's tuning.maxGpus " + o.maxGpus() + (tasks > 1 ? " over " + tasks + " tasks" : "")
                    + ")";
        }
        if (gpus < 0 || gpus > hi) {
            throw new JobSubmissions.Refused(400, new Rejection("gpus", "must be 0 to " + hi + " GPUs per task" + bound
                    + ", was " + gpus));
        }
    }

    /**
     * The next revision of the job at {@code batch} and {@code gpuMilli} per task, either or both of which may be the
     * job's own: only what differs is changed, and a change entry and the summary say so.
     */
    private JobTuned update(Live live, int batch, long gpuMilli, String why) {
        JobTuned t = live.tuned;
        List<TuningChange> changes = new ArrayList<>();
        List<String> said = new ArrayList<>();
        TrainingSpec training = t.training();
        if (batch != training.batchSize()) {
            said.add("batch " + training.batchSize() + " → " + batch);
            training = rebatched(training, batch, why, changes);
        }
        ResourceAmounts perTask = t.perTask();
        if (gpuMilli != perTask.gpuMilli()) {
            changes.add(new TuningChange("perTask.gpuMilli", Long.toString(perTask.gpuMilli()), Long.toString(gpuMilli),
                    why + "; the scheduler stops the job (checkpoint) and places it again with the new request"));
            said.add("GPUs per task " + count(perTask.gpuMilli()) + " → " + count(gpuMilli));
            perTask = new ResourceAmounts(gpuMilli, perTask.cpuMilli(), perTask.memoryMib());
        }
        int revision = t.revision() + 1;
        // Derived from the revision it replaces: the same re-tune of the same revision is the same event.
        return new JobTuned(Events.derivedId("retuned-" + revision, t.eventId()), GantryEvent.SCHEMA_VERSION,
                Instant.now(), t.jobId(), t.user(), t.jobName(), t.model(), t.submittedAt(), t.tasks(), perTask,
                t.batchSize(), t.epochs(), t.durationS(), t.predictedDurationS(), changes,
                "revision " + revision + ": " + String.join(", ", said) + " while it runs", t.preemptible(), training,
                revision);
    }

    /** {@code spec} at {@code batch}, the learning rate scaled with it; its change entries go to {@code changes}. */
    private TrainingSpec rebatched(TrainingSpec spec, int batch, String why, List<TuningChange> changes) {
        double lr = realTuner.scaledLearningRate(spec.optimizer(), spec.learningRate(), spec.batchSize(), batch);
        changes.add(new TuningChange("training.batchSize", Integer.toString(spec.batchSize()), Integer.toString(batch),
                why + "; the runner changes it at an epoch boundary after a checkpoint-restart"));
        if (lr != spec.learningRate()) {
            changes.add(new TuningChange("training.learningRate", Double.toString(spec.learningRate()),
                    Double.toString(lr), ("adam".equals(spec.optimizer()) ? "square-root" : "linear")
                    + " scaling with the batch (" + spec.batchSize() + " → " + batch + ")"));
        }
        return spec.with(batch, lr, spec.epochs());
    }

    /** 2 for 2000, 0.5 for 500: GPUs as a person writes them. */
    private static String count(long gpuMilli) {
        return gpuMilli % 1000 == 0 ? Long.toString(gpuMilli / 1000) : Double.toString(gpuMilli / 1000.0);
    }
}
