package io.gantry.tuner.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobProgress;
import io.gantry.events.JobTuned;
import io.gantry.events.Limits;
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
 * job's newest tuning with a revision one higher, the new batch size and the learning rate scaled with it by the
 * one-time tuner's own rule ({@link RealTrainingTuner#scaledLearningRate}). The dispatcher carries it out by a
 * checkpoint-restart of the job's runner, which changes the batch size at an epoch boundary.
 *
 * <p>Two ways to a re-tune: the rule, at every epoch end a job's {@code JobProgress} reports, runs the one-time tuner's
 * choice ({@link RealTrainingTuner#tune}) again on the runs of the model known by then (results that came in while the
 * job ran) and re-tunes when it now picks another batch size; and an operator's explicit request ({@link #requested},
 * {@code POST /jobs/{id}/retune}). Both stay within the submitter's batch bounds, and neither touches a job whose
 * submitter switched tuning off. The epoch budget is kept: the run still stops at its target.
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
        live.tuned = update(live, r.batchSize(), String.format(Locale.ROOT,
                "re-tuned at the end of epoch %d by the measured runs known now: %s", p.epoch(), r.summary()));
        return Optional.of(live.tuned);
    }

    /**
     * An explicit re-tune of job {@code jobId} to {@code batchSize}. Refused ({@link JobSubmissions.Refused}) with 404
     * for a job the tuner does not know as a real training job that has not ended, 400 for a batch size outside the
     * contract's or the submitter's bounds, 409 when the submitter switched tuning off or the batch size is the job's
     * already. The update becomes the job's newest tuning once it is published and given to {@link #tuned}.
     */
    public synchronized JobTuned requested(String jobId, int batchSize, String reason) {
        Live live = jobs.get(jobId);
        if (live == null) {
            throw new JobSubmissions.Refused(404, new Rejection("jobId", "'" + jobId + "' is not a real training job "
                    + "the tuner knows that has not ended: only those are re-tuned"));
        }
        TuningOptions o = live.options;
        if (o != null && !o.enabled()) {
            throw new JobSubmissions.Refused(409, new Rejection("jobId", "its submitter switched tuning off"));
        }
        int lo = o != null && o.minBatchSize() != null ? o.minBatchSize() : 1;
        int hi = Math.min(Limits.MAX_TRAINING_BATCH_SIZE, o != null && o.maxBatchSize() != null ? o.maxBatchSize()
                : Integer.MAX_VALUE);
        if (batchSize < lo || batchSize > hi) {
            throw new JobSubmissions.Refused(400, new Rejection("batchSize", "must be " + lo + " to " + hi
                    + (hi < Limits.MAX_TRAINING_BATCH_SIZE || lo > 1 ? " (the submitter's bounds)" : "")
                    + ", was " + batchSize));
        }
        if (batchSize == live.tuned.training().batchSize()) {
            throw new JobSubmissions.Refused(409, new Rejection("batchSize", "is the job's batch size already ("
                    + batchSize + ", revision " + live.tuned.revision() + ")"));
        }
        return update(live, batchSize, "re-tuned on request" + (reason == null || reason.isBlank() ? ""
                : ": " + reason));
    }

    /** The next revision of the job at {@code batch}. */
    private JobTuned update(Live live, int batch, String why) {
        JobTuned t = live.tuned;
        TrainingSpec spec = t.training();
        double lr = realTuner.scaledLearningRate(spec.optimizer(), spec.learningRate(), spec.batchSize(), batch);
        List<TuningChange> changes = new ArrayList<>();
        changes.add(new TuningChange("training.batchSize", Integer.toString(spec.batchSize()), Integer.toString(batch),
                why + "; the runner changes it at an epoch boundary after a checkpoint-restart"));
        if (lr != spec.learningRate()) {
            changes.add(new TuningChange("training.learningRate", Double.toString(spec.learningRate()),
                    Double.toString(lr), ("adam".equals(spec.optimizer()) ? "square-root" : "linear")
                    + " scaling with the batch (" + spec.batchSize() + " → " + batch + ")"));
        }
        int revision = t.revision() + 1;
        // Derived from the revision it replaces: the same re-tune of the same revision is the same event.
        JobTuned next = new JobTuned(Events.derivedId("retuned-" + revision, t.eventId()), GantryEvent.SCHEMA_VERSION,
                Instant.now(), t.jobId(), t.user(), t.jobName(), t.model(), t.submittedAt(), t.tasks(), t.perTask(),
                t.batchSize(), t.epochs(), t.durationS(), t.predictedDurationS(), changes,
                String.format(Locale.ROOT, "revision %d: batch %d → %d while it runs", revision, spec.batchSize(), batch),
                t.preemptible(), spec.with(batch, lr, spec.epochs()), revision);
        return next;
    }
}
