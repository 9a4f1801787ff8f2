package io.gantry.runner;

import io.gantry.events.EventCodec;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.TrainingSpec;
import io.gantry.training.model.Datasets;
import io.gantry.training.model.ShapeInference;
import io.gantry.training.model.SpecException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The process a real job's pod runs (a plain main, no server): trains one {@link TrainingSpec} and reports it.
 * <pre>
 * java -Dai.djl.offline=true -Dai.djl.pytorch.num_threads=1 -Dai.djl.pytorch.num_interop_threads=1 \
 *      -jar job-runner.jar --spec spec.json --job-id J --user U [--attempt N] --checkpoint-dir DIR \
 *      [--datasets DIR] [--bootstrap HOST:PORT] [--topic T] [--parent-pid PID]
 * </pre>
 * Against a secured broker the runner authenticates as {@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SASL_MECHANISM}
 * and {@code KAFKA_SASL_JAAS_CONFIG} say ({@link KafkaClientAuth}; its principal is {@code job-runner}), not flags:
 * a password on the command line would show in every process listing.
 * Exit codes: 0 trained and reported (a {@code result-N.json} is in the checkpoint directory), or stopped on request
 * (SIGTERM, parent gone) after writing a checkpoint; 2 the spec cannot be trained (the reason, naming the field or
 * layer, is the last line on stderr and in {@code failure.txt}); 1 anything else went wrong (same reporting).
 */
public final class JobRunner {

    static final int EXIT_BAD_SPEC = 2;
    static final int EXIT_FAILED = 1;

    /** The command line, parsed. */
    record Args(Path spec, String jobId, String user, int attempt, Path checkpointDir, Path datasets, String bootstrap,
                String topic, Long parentPid) {

        static Args parse(String[] argv) {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < argv.length; i++) {
                String a = argv[i];
                if (!a.startsWith("--") || i + 1 >= argv.length) {
                    throw new IllegalArgumentException("expected --name value pairs, got '" + a + "'");
                }
                m.put(a.substring(2), argv[++i]);
            }
            String shared = System.getProperty("gantry.shared.dir", "../shared");
            Args args = new Args(Path.of(required(m, "spec")), required(m, "job-id"), m.getOrDefault("user", null),
                    Integer.parseInt(m.getOrDefault("attempt", "1")), Path.of(required(m, "checkpoint-dir")),
                    Path.of(m.getOrDefault("datasets", shared + "/datasets")), m.get("bootstrap"), m.get("topic"),
                    m.containsKey("parent-pid") ? Long.parseLong(m.get("parent-pid")) : null);
            m.keySet().removeAll(java.util.List.of("spec", "job-id", "user", "attempt", "checkpoint-dir", "datasets",
                    "bootstrap", "topic", "parent-pid"));
            if (!m.isEmpty()) {
                throw new IllegalArgumentException("unknown option(s): --" + String.join(", --", m.keySet()));
            }
            return args;
        }

        private static String required(Map<String, String> m, String name) {
            String v = m.get(name);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("--" + name + " is required");
            }
            return v;
        }
    }

    private JobRunner() {
    }

    public static void main(String[] argv) {
        System.setProperty("ai.djl.offline", System.getProperty("ai.djl.offline", "true"));
        System.setProperty("ai.djl.pytorch.num_threads", System.getProperty("ai.djl.pytorch.num_threads", "1"));
        System.setProperty("ai.djl.pytorch.num_interop_threads",
                System.getProperty("ai.djl.pytorch.num_interop_threads", "1"));
        System.setProperty("org.slf4j.simpleLogger.log.ai.djl.util.cuda.CudaUtils", "error");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        Args args;
        try {
            args = Args.parse(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("job-runner: " + e.getMessage());
            System.exit(EXIT_FAILED);
            return;
        }
        AtomicBoolean stop = new AtomicBoolean();
        installStopSignals(stop, args.parentPid());
        EventSink sink = null;
        int code;
        try {
            if (args.bootstrap() == null) {
                sink = new EventSink.Collecting(System.out);
            } else {
                KafkaClientAuth auth = KafkaClientAuth.fromEnvironment(System.getenv());
                // Who it reports as (never the password): a runner given its parent's login would still be let write.
                System.err.println("job-runner: reporting to " + args.bootstrap() + ", " + auth);
                sink = EventSink.kafka(args.bootstrap(), auth, args.topic());
            }
            code = run(args, sink, stop::get, System.err);
        } catch (RuntimeException e) {
            code = fail(args, EXIT_FAILED, "job-runner crashed: " + e, System.err);
        } finally {
            if (sink != null) {
                sink.close();
            }
        }
        System.exit(code);
    }

    /** SIGTERM (a preemption, a pod deleted) and the parent's death both ask for a checkpoint and a clean exit. */
    private static void installStopSignals(AtomicBoolean stop, Long parentPid) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> stop.set(true));
        } catch (IllegalArgumentException e) {
            // No SIGTERM here: the shutdown hook of the JVM still ends the process.
        }
        if (parentPid != null) {
            Thread watch = new Thread(() -> {
                while (true) {
                    boolean alive = ProcessHandle.of(parentPid).map(ProcessHandle::isAlive).orElse(false);
                    if (!alive) {
                        System.err.println("job-runner: parent process " + parentPid + " is gone; stopping");
                        stop.set(true);
                        sleep(30_000);
                        // The checkpoint takes well under this; a runner must never outlive its dispatcher for long.
                        Runtime.getRuntime().halt(EXIT_FAILED);
                    }
                    sleep(1_000);
                }
            }, "parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The whole run; returns the exit code. Separate from {@link #main} so tests drive it in-process. */
    static int run(Args args, EventSink sink, java.util.function.BooleanSupplier stop, PrintStream log) {
        TrainingSpec spec;
        try {
            spec = EventCodec.mapper().readValue(args.spec().toFile(), TrainingSpec.class);
        } catch (IOException e) {
            return fail(args, EXIT_BAD_SPEC, "training: cannot read the spec " + args.spec() + ": "
                    + firstLine(e.getMessage()), log);
        }
        try {
            ShapeInference.check(spec);
            if (spec.batchSize() > 0 && !Files.isDirectory(args.datasets())) {
                return fail(args, EXIT_FAILED, "datasets directory " + args.datasets() + " does not exist", log);
            }
        } catch (SpecException e) {
            return fail(args, EXIT_BAD_SPEC, e.getMessage(), log);
        }
        Datasets.Loaded data = Datasets.load(args.datasets(), spec.dataset());
        if (spec.batchSize() > data.train().size()) {
            log.printf(Locale.ROOT, "job-runner: batch size %d is above the %d training rows of %s: each step is the "
                    + "whole training split%n", spec.batchSize(), data.train().size(), spec.dataset());
        }
        String user = args.user();
        Path done = args.checkpointDir().resolve("result-" + args.attempt() + ".json");
        if (Files.exists(done)) {
            // Restarted after its training ended (a re-tune that came too late): the result is out already.
            log.printf(Locale.ROOT, "job-runner: job %s attempt %d finished before; %s is its result%n", args.jobId(),
                    args.attempt(), done.getFileName());
            return 0;
        }
        try (Training training = new Training(spec, data, args.checkpointDir())) {
            boolean resumed = training.resumeFromNewest();
            log.printf(Locale.ROOT, "job-runner: job %s attempt %d, model %s on %s, batch size %d, %s%n", args.jobId(),
                    args.attempt(), spec.modelKey(), Datasets.describe(data), spec.batchSize(),
                    resumed ? "resumed from " + CheckpointFiles.newest(args.checkpointDir()).orElseThrow().getFileName()
                            + " after epoch(s) at batch size " + training.epochBatchSizes()
                            + (training.batchSize() != Math.min(spec.batchSize(), data.train().size())
                            ? "; the epoch in progress ends at batch size " + training.batchSize() : "")
                            : "from scratch");
            Reporter reporter = new Reporter(args.jobId(), user, args.attempt(), sink);
            Training.Outcome outcome = training.run(stop, reporter);
            if (!outcome.finished()) {
                Training.Status s = outcome.status();
                log.printf(Locale.ROOT, "job-runner: stopped after %d epoch(s) and %d step(s); checkpoint written%n",
                        s.epochsDone(), s.stepInEpoch());
                return 0;
            }
            Training.Status s = outcome.status();
            Training.Evaluation test = outcome.test();
            JobResult result = new JobResult(id(args, "result"), GantryEvent.SCHEMA_VERSION, Instant.now(),
                    args.jobId(), user, args.attempt(), test.accuracy(), test.loss(), test.confusion(),
                    s.targetReachedEpoch(), s.epochsDone(), ProcessStats.peakRssBytes(), ProcessStats.cpuSeconds(),
                    ProcessStats.wallSeconds(), reporter.meanSamplesPerSecond(), spec.modelKey(), training.batchSize(),
                    spec.learningRate(), spec.optimizer(), spec.target(), training.epochBatchSizes());
            sink.sendAndWait(result);
            Files.createDirectories(args.checkpointDir());
            Files.writeString(args.checkpointDir().resolve("result-" + args.attempt() + ".json"),
                    EventCodec.encode(result) + "\n", StandardCharsets.UTF_8);
            log.printf(Locale.ROOT, "job-runner: done: test accuracy %.4f after %d epoch(s)%s%n", test.accuracy(),
                    s.epochsDone(), s.targetReachedEpoch() == null ? "" : ", target met at epoch " + s.targetReachedEpoch());
            return 0;
        } catch (SpecException e) {
            return fail(args, EXIT_BAD_SPEC, e.getMessage(), log);
        } catch (Exception e) {
            return fail(args, EXIT_FAILED, "training failed: " + firstLine(String.valueOf(e)), log);
        }
    }

    /** Writes the reason where the dispatcher (failure.txt) and Kubernetes (/dev/termination-log) look for it. */
    static int fail(Args args, int code, String reason, PrintStream log) {
        log.println("job-runner: " + reason);
        try {
            Files.createDirectories(args.checkpointDir());
            Files.writeString(args.checkpointDir().resolve("failure.txt"), reason + "\n", StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            log.println("job-runner: cannot write failure.txt: " + e);
        }
        Path termination = Path.of("/dev/termination-log");
        if (Files.isWritable(termination)) {
            try {
                Files.writeString(termination, reason, StandardCharsets.UTF_8);
            } catch (IOException ignored) {
                // best effort
            }
        }
        return code;
    }

    static String id(Args args, String what) {
        return UUID.nameUUIDFromBytes((args.jobId() + "/" + args.attempt() + "/" + what).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * Turns the run's status into {@link JobProgress}: one at every epoch end, and within an epoch at most one a
     * second (so a slow epoch still shows it moves, and fast ones do not flood the topic).
     */
    static final class Reporter implements Training.Listener {
        private final String jobId;
        private final String user;
        private final int attempt;
        private final EventSink sink;
        private long lastReportNanos = System.nanoTime();
        private long lastSamples;
        private double lastSeconds;
        private Training.Status last;

        Reporter(String jobId, String user, int attempt, EventSink sink) {
            this.jobId = jobId;
            this.user = user;
            this.attempt = attempt;
            this.sink = sink;
        }

        @Override
        public void progress(Training.Status s, boolean epochEnded) {
            last = s;
            long now = System.nanoTime();
            if (!epochEnded && now - lastReportNanos < 1_000_000_000L) {
                return;
            }
            lastReportNanos = now;
            double seconds = s.trainingSeconds() - lastSeconds;
            long samples = s.samplesThisAttempt() - lastSamples;
            Double rate = seconds > 0 ? samples / seconds : null;
            lastSeconds = s.trainingSeconds();
            lastSamples = s.samplesThisAttempt();
            double trainLoss = s.epochTrainLoss();
            Double loss = Double.isFinite(trainLoss) ? trainLoss : null;
            String eventId = UUID.nameUUIDFromBytes((jobId + "/" + attempt + "/progress/" + s.globalStep() + "/"
                    + epochEnded).getBytes(StandardCharsets.UTF_8)).toString();
            // accuracy: what the run is judged by — the test accuracy the runner measured at this epoch end when the
            // target is test_accuracy (so the last one equals JobResult.testAccuracy), else the validation accuracy.
            Double accuracy = s.testAccuracy() != null && epochEnded ? s.testAccuracy() : s.validationAccuracy();
            sink.send(new JobProgress(eventId, GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, user, s.progress(),
                    s.epochsDone(), loss, accuracy, rate, s.globalStep(), loss, s.validationLoss(),
                    s.validationAccuracy(), s.batchSize()));
        }

        /** Training samples per second spent in training steps, this attempt. */
        double meanSamplesPerSecond() {
            return last == null || last.trainingSeconds() <= 0 ? 0 : last.samplesThisAttempt() / last.trainingSeconds();
        }
    }
}
