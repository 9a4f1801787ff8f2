package io.gantry.tuner.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.Limits;
import io.gantry.events.Names;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import io.gantry.events.Violation;
import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.tuner.mapping.Tuning;
import io.gantry.scheduling.tuning.RealTrainingTuner;
import io.gantry.scheduling.tuning.RunnerProfile;
import io.gantry.scheduling.tuning.TrainingTuner;
import io.gantry.scheduling.tuning.UsageRightSizer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Decides what a submitted job will ask the scheduler for, with the simulator's own tuning code
 * ({@link TrainingTuner}: goodput-maximising batch size and epochs that still reach the metric the job as submitted
 * would reach, and GPUs only where scaling pays). A job is either rejected (it can never run), or tuned, or passed
 * through unchanged with the reason; every change carries its own reason. Pure: nothing here sends or counts, so the
 * preview endpoint and the pipeline share one decision.
 *
 * <p>A job with a {@code training} spec (a real run of the job runner) is tuned from measurements instead
 * ({@link RealTrainingTuner}: batch size, scaled learning rate and epoch budget from earlier runs of the same model that
 * reached the target, the run stopping at the spec's target), and its CPU and memory requests are right-sized from the
 * peak RSS and CPU those runs reported ({@link UsageRightSizer}: p95 + headroom, never below the largest). Trace jobs'
 * CPU and memory are not right-sized: no trace measures their usage.
 */
@Startup
@ApplicationScoped
public class JobTuner {

    public static final String STAGE = "job-tuner";
    static final String NOT_TUNED = "not tuned: the submitter switched tuning off";

    private static final Logger LOG = Logger.getLogger(JobTuner.class);

    /** Outcome label of a decision, as in {@code gantry_tuner_jobs_total{outcome}}. */
    public enum Outcome {
        TUNED, UNCHANGED, REJECTED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public sealed interface Decision permits Tuned, Rejected {
        Outcome outcome();
    }

    /**
     * The job as it will be queued.
     *
     * @param submittedGpuSeconds predicted GPU-seconds of the job as submitted; null when the models cannot predict it
     * @param tunedGpuSeconds     predicted GPU-seconds as queued; null likewise
     */
    public record Tuned(JobTuned event, Double submittedGpuSeconds, Double tunedGpuSeconds) implements Decision {
        @Override
        public Outcome outcome() {
            return event.changes().isEmpty() ? Outcome.UNCHANGED : Outcome.TUNED;
        }
    }

    public record Rejected(JobRejected event) implements Decision {
        @Override
        public Outcome outcome() {
            return Outcome.REJECTED;
        }
    }

    private final TrainingTuner tuner;
    private final RequestLimits limits;
    private final Path profilesDir;
    private final RealTrainingTuner realTuner = new RealTrainingTuner(RealTrainingTuner.Settings.DEFAULT);
    private final UsageRightSizer rightSizer;
    private final RunnerHistory history;

    public JobTuner(TunerConfig config) {
        this.limits = new RequestLimits(config.nodeGpus(), config.nodeCpuCores(), config.nodeMemoryGib());
        this.profilesDir = config.profilesDir().map(Path::of)
                .orElseGet(() -> SharedTraces.sharedDir(config.sharedDir().orElse(null)).resolve("traces/philly-pollux/app-profiles")).toAbsolutePath().normalize();
        this.rightSizer = new UsageRightSizer(new UsageRightSizer.Settings(UsageRightSizer.Settings.DEFAULT.quantile(),
                config.rightSizeHeadroom(), config.rightSizeMinRuns(), UsageRightSizer.Settings.DEFAULT.cpuFloorMilli(),
                UsageRightSizer.Settings.DEFAULT.memFloorMib()));
        this.history = new RunnerHistory(config.runnerProfile().map(Path::of).orElse(null));
        LOG.infof("job tuner: %d measured run(s) of %d real training model(s) in the built-in runner profile",
                history.builtInRuns(), history.profile().models().size());
        TrainingTuner.Settings settings = new TrainingTuner.Settings(config.minScalingEfficiency(), Math.max(1, config.nodeGpus()));
        if (Files.isDirectory(profilesDir)) {
            long t0 = System.nanoTime();
            // A folder that exists but cannot be read fails the start: tuning with half the profiles would be silent.
            this.tuner = TrainingTuner.fromProfiles(profilesDir, settings);
            LOG.infof("job tuner: fitted %d model(s) %s from %s in %d ms", tuner.models().size(), tuner.models().keySet(),
                    profilesDir, (System.nanoTime() - t0) / 1_000_000);
        } else {
            this.tuner = new TrainingTuner(Map.of(), settings);
            LOG.warnf("job tuner: no app profiles at %s (set gantry.tuner.profiles-dir or GANTRY_SHARED_DIR): "
                    + "every job will pass through untuned, with that reason in its JobTuned summary", profilesDir);
        }
    }

    /** The real-training tuner's rules (stateless), which re-tunes of running jobs apply too. */
    public RealTrainingTuner realTuner() {
        return realTuner;
    }

    /** What the tuner learnt of real training runs (fed by the lifecycle topic). */
    public RunnerHistory history() {
        return history;
    }

    /** The largest node's shape, which no task may exceed. */
    public RequestLimits limits() {
        return limits;
    }

    /** The models the tuner can tune for (Pollux application names). */
    public java.util.Set<String> models() {
        return tuner.models().keySet();
    }

    /**
     * Rejects, tunes or passes through a job that is valid by the event contract. The event it makes has an id derived
     * from the submission's ({@link #tunedId}, {@link #rejectedId}): deciding the same submission again, after a crash
     * between sending the decision and committing the input, sends the very same event, which consumers then
     * recognise as a redelivery.
     */
    public Decision decide(JobSubmitted job) {
        List<Violation> impossible = limits.check(job);
        if (!impossible.isEmpty()) {
            return new Rejected(rejection(rejectedId(job.eventId()), job.jobId(), job.user(), Rejection.of(impossible)));
        }
        return tune(job);
    }

    /** The id of the {@code JobTuned} made of the submission with event id {@code submittedEventId}. */
    public static String tunedId(String submittedEventId) {
        return Events.derivedId("tuned", submittedEventId);
    }

    /** The id of the tuner's {@code JobRejected} of the submission with event id {@code submittedEventId}. */
    public static String rejectedId(String submittedEventId) {
        return Events.derivedId("rejected", submittedEventId);
    }

    /**
     * The {@code JobRejected} for a submission that broke the event contract (it is dead-lettered too), when the
     * payload still names its job: a JSON object of type {@code JobSubmitted} with a {@code jobId} that is a valid job
     * id. Other types on the topic are a producer's mistake, not a submission, and rejecting their id could end another
     * job's lifecycle; without a valid id there is nobody to tell (and the rejection would break the contract itself).
     * The user is copied only when it is a valid name. The id is derived from the payload's {@code eventId} when it has
     * one, as for {@link #decide}.
     */
    public Optional<JobRejected> rejectionOfInvalid(String payload, InvalidEventException e) {
        JsonNode n;
        try {
            n = payload == null ? null : EventCodec.mapper().readTree(payload);
        } catch (com.fasterxml.jackson.core.JsonProcessingException unreadable) {
            return Optional.empty();
        }
        if (n == null || !n.isObject() || !JobSubmitted.TYPE.equals(n.path("type").asText(null))) {
            return Optional.empty();
        }
        JsonNode id = n.get("jobId");
        if (id == null || !id.isTextual() || !Names.isJobId(id.asText())) {
            return Optional.empty();
        }
        String user = n.path("user").isTextual() && Names.isUser(n.get("user").asText()) ? n.get("user").asText() : null;
        JsonNode eventId = n.get("eventId");
        String rejectionId = eventId != null && eventId.isTextual() && !eventId.asText().isBlank()
                ? rejectedId(eventId.asText()) : Events.newId();
        return Optional.of(rejection(rejectionId, id.asText(), user, Rejection.of(e.violations())));
    }

    private static JobRejected rejection(String eventId, String jobId, String user, Rejection r) {
        return new JobRejected(eventId, GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, user, STAGE, r.field(), r.reason());
    }

    private Tuned tune(JobSubmitted job) {
        if (job.training() != null) {
            return tuneTraining(job);
        }
        TuningOptions o = job.tuningOrDefault();
        String untunable = untunable(job);
        if (untunable != null) {
            return passThrough(job, o.enabled() ? untunable : NOT_TUNED, null);
        }
        int gpus = Math.toIntExact(Math.multiplyExact(job.tasks(), job.perTask().gpuMilli()) / 1000);
        TrainingTuner.Request asSubmitted = Tuning.request(job, gpus, null);
        // The "do not tune" path of the tuner predicts the submitted configuration without changing it.
        TrainingTuner.Result submitted = tuner.tune(asSubmitted);
        if (!o.enabled()) {
            return passThrough(job, NOT_TUNED, finite(submitted.predictedSeconds()));
        }
        TrainingTuner.Result r = tuner.tune(Tuning.request(job, gpus, o));
        if (!r.changed()) {
            return passThrough(job, r.summary(), finite(r.predictedSeconds()));
        }
        List<TuningChange> changes = Tuning.changes(r.changes());
        GangShape gang = GangShape.of(r.gpus(), job.perTask());
        if (gang.tasks() > Limits.MAX_TASKS) {
            return passThrough(job, String.format(Locale.ROOT, "not tuned: the best configuration found, %d GPUs, would be "
                    + "a gang of %d tasks, more than the %d a job may have", r.gpus(), gang.tasks(), Limits.MAX_TASKS),
                    finite(submitted.predictedSeconds()));
        }
        if (gang.tasks() != job.tasks()) {
            changes.add(new TuningChange("tasks", Integer.toString(job.tasks()), Integer.toString(gang.tasks()),
                    String.format(Locale.ROOT, "%d GPUs as %d task(s) of %d GPU(s), within the %d GPUs per task asked for",
                            r.gpus(), gang.tasks(), gang.perTask().gpuMilli() / 1000, job.perTask().gpuMilli() / 1000)));
        }
        if (!gang.perTask().equals(job.perTask())) {
            changes.add(new TuningChange("perTask", amounts(job.perTask()), amounts(gang.perTask()),
                    "fewer GPUs per task, keeping the request's CPU and memory per GPU"));
        }
        Double durationS = job.durationS();
        Double submittedSeconds = finite(submitted.predictedSeconds());
        Double tunedSeconds = finite(r.predictedSeconds());
        if (durationS != null && submittedSeconds != null && tunedSeconds != null && submittedSeconds > 0) {
            // durationS is how long a simulated cluster runs the pod; left as submitted it would describe a job that no
            // longer exists. Scaled by the models' predicted speed-up, so the prediction's error carries over visibly.
            double scaled = job.durationS() * tunedSeconds / submittedSeconds;
            // A slower configuration could scale a long run past the contract's bound: it runs at most that long.
            durationS = Math.min(scaled, Limits.MAX_DURATION_S);
            changes.add(new TuningChange("durationS", fmt(job.durationS()), fmt(durationS), String.format(Locale.ROOT,
                    "scaled by the predicted run time of the tuned configuration (%.0f s) over the submitted one (%.0f s)%s",
                    tunedSeconds, submittedSeconds, scaled > durationS ? ", at most the contract's 366 days" : "")));
        }
        Integer epochs = r.epochs() == submitted.epochs() ? job.epochs() : Integer.valueOf(r.epochs());
        JobTuned event = new JobTuned(tunedId(job.eventId()), GantryEvent.SCHEMA_VERSION, Instant.now(), job.jobId(),
                job.user(), job.jobName(), job.model(), job.occurredAt(), gang.tasks(), gang.perTask(), r.batchSize(), epochs,
                durationS, tunedSeconds, changes, r.summary(), job.preemptible(), job.training());
        return new Tuned(event, submittedSeconds == null ? null : gpus * submittedSeconds,
                tunedSeconds == null ? null : r.gpus() * tunedSeconds);
    }

    /**
     * A real training job: hyper-parameters from the measured runs of its model, requests right-sized from their usage
     * (both only with tuning enabled). The spec's target stays, so the run stops there.
     */
    private Tuned tuneTraining(JobSubmitted job) {
        TrainingSpec spec = job.training();
        TuningOptions o = job.tuningOrDefault();
        String key = spec.modelKey();
        List<RunnerProfile.Run> runs = history.profile().runs(key);
        RealTrainingTuner.Result r = realTuner.tune(Tuning.spec(spec), Tuning.bounds(o), runs);
        List<TuningChange> changes = Tuning.changes(r.changes());
        ResourceAmounts perTask = job.perTask();
        String summary = r.summary();
        if (o.enabled()) {
            UsageRightSizer.Sizing s = rightSizer.size(runs, perTask.cpuMilli(), perTask.memoryMib());
            if (s.runs() > 0) {
                long cpu = Math.min(s.cpuMilli(), limits.nodeCpuMilli());
                long mem = Math.min(s.memoryMib(), limits.nodeMemoryMib());
                if (cpu != perTask.cpuMilli()) {
                    changes.add(new TuningChange("perTask.cpuMilli", Long.toString(perTask.cpuMilli()),
                            Long.toString(cpu), "right-sized from the measured runs of model " + key + ": " + s.basis()));
                }
                if (mem != perTask.memoryMib()) {
                    changes.add(new TuningChange("perTask.memoryMib", Long.toString(perTask.memoryMib()),
                            Long.toString(mem), "right-sized from the measured runs of model " + key + ": " + s.basis()));
                }
                perTask = new ResourceAmounts(perTask.gpuMilli(), cpu, mem);
                summary += "; requests right-sized from " + s.runs() + " measured run(s)";
            } else {
                summary += "; requests as submitted: " + s.basis();
            }
        }
        TrainingSpec tunedSpec = r.changed() ? spec.with(r.batchSize(), r.learningRate(), r.epochs()) : spec;
        Double predicted = finite(r.predictedSeconds());
        JobTuned event = new JobTuned(tunedId(job.eventId()), GantryEvent.SCHEMA_VERSION, Instant.now(), job.jobId(),
                job.user(), job.jobName(), job.model(), job.occurredAt(), job.tasks(), perTask, job.batchSize(),
                job.epochs(), job.durationS(), predicted, changes, changes.isEmpty() && !o.enabled() ? NOT_TUNED : summary,
                job.preemptible(), tunedSpec);
        double gpus = job.tasks() * (double) perTask.gpuMilli() / 1000.0;
        Double submittedGpuSeconds = finite(r.submittedSeconds()) == null ? null : gpus * r.submittedSeconds();
        Double tunedGpuSeconds = predicted == null ? null : gpus * predicted;
        return new Tuned(event, submittedGpuSeconds, tunedGpuSeconds);
    }

    /** Why the models cannot tune this job at all; null when they can. */
    private String untunable(JobSubmitted job) {
        if (job.model() == null || job.model().isBlank()) {
            return "not tuned: the job names no model, so no measured profile applies";
        }
        if (!tuner.models().containsKey(job.model())) {
            return tuner.models().isEmpty()
                    ? "not tuned: no app profiles are loaded (none at " + profilesDir + "), so no model can be tuned"
                    : "not tuned: no measured profile for model '" + job.model() + "' (known: "
                    + String.join(", ", tuner.models().keySet()) + ")";
        }
        if (job.batchSize() == null) {
            return "not tuned: no batch size given, so there is no submitted configuration whose target metric tuning must keep";
        }
        long gpuMilli = job.perTask().gpuMilli();
        if (gpuMilli == 0) {
            return "not tuned: the job asks for no GPU, and the profiles measure GPU training";
        }
        if (gpuMilli % 1000 != 0) {
            return "not tuned: " + gpuMilli + " GPU milli per task is not a whole number of GPUs, and the profiles measure whole GPUs";
        }
        return null;
    }

    private static Tuned passThrough(JobSubmitted job, String summary, Double predictedS) {
        JobTuned event = new JobTuned(tunedId(job.eventId()), GantryEvent.SCHEMA_VERSION, Instant.now(), job.jobId(),
                job.user(), job.jobName(), job.model(), job.occurredAt(), job.tasks(), job.perTask(), job.batchSize(),
                job.epochs(), job.durationS(), predictedS, List.of(), summary, job.preemptible(), job.training());
        Double gpuSeconds = predictedS == null ? null : job.tasks() * (double) job.perTask().gpuMilli() / 1000.0 * predictedS;
        return new Tuned(event, gpuSeconds, gpuSeconds);
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String amounts(ResourceAmounts a) {
        return "gpuMilli=" + a.gpuMilli() + ", cpuMilli=" + a.cpuMilli() + ", memoryMib=" + a.memoryMib();
    }

    private static String fmt(double seconds) {
        return String.format(Locale.ROOT, "%.1f", seconds);
    }
}
