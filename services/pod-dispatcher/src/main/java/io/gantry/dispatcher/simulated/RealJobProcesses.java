package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.config.RealJobsConfig;
import io.gantry.events.EventCodec;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.TrainingSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Runs real jobs as {@code job-runner} processes on this machine, at most {@code maxConcurrent} at once (the rest wait
 * in arrival order). Each job has a directory with its spec, checkpoints (kept across attempts, so a preempted job
 * resumes) and one log per attempt. A process gets the dispatcher's pid and exits when the dispatcher is gone.
 *
 * <p>The end of each run is reported once to its {@link Ended} callback: {@code completed} when the runner exited 0
 * after writing {@code result-<attempt>.json} (its {@code JobResult} is on the topic by then); {@code failed} with a
 * reason otherwise (the runner's own {@code failure.txt}, else its exit code and last log line; a run past the timeout
 * is killed). A run stopped by {@link #stop} (a preemption) reports nothing.
 */
public final class RealJobProcesses {

    private static final Logger LOG = Logger.getLogger(RealJobProcesses.class);

    /** How a run ended. */
    public interface Ended {
        void completed(RunningJob job);

        void failed(RunningJob job, String reason, boolean oomKilled);
    }

    private final RealJobsConfig config;
    private final String bootstrap;
    /** KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_MECHANISM, KAFKA_SASL_JAAS_CONFIG of every runner. */
    private final Map<String, String> runnerKafkaEnv;
    private final Path workDir;
    private final int maxConcurrent;
    private final Deque<Run> waiting = new ArrayDeque<>();
    private final Map<String, Run> active = new HashMap<>();
    /** The last process of each job, so the next attempt starts only once the previous one has written its checkpoint. */
    private final Map<String, Process> lastProcess = new HashMap<>();
    private volatile boolean closed;

    private final class Run {
        final RunningJob job;
        final TrainingSpec spec;
        final Ended ended;
        Process process;
        volatile boolean stopped;

        Run(RunningJob job, TrainingSpec spec, Ended ended) {
            this.job = job;
            this.spec = spec;
            this.ended = ended;
        }
    }

    /** Runners' work directories when none is configured: under GANTRY_DATA_DIR, else in the temp directory. */
    static Path defaultWorkDir() {
        String data = System.getenv("GANTRY_DATA_DIR");
        return data != null && !data.isBlank() ? Path.of(data, "real-jobs")
                : Path.of(System.getProperty("java.io.tmpdir"), "gantry-real-jobs-" + ProcessHandle.current().pid());
    }

    /** {@code kafkaAuth}: the dispatcher's own; a runner gets its protocol, with {@link RealJobsConfig#kafkaSaslJaasConfig}. */
    public RealJobProcesses(RealJobsConfig config, String bootstrap, KafkaClientAuth kafkaAuth, Path defaultWorkDir) {
        this.config = config;
        this.bootstrap = bootstrap;
        this.runnerKafkaEnv = runnerKafkaEnvironment(kafkaAuth, config.kafkaSaslJaasConfig());
        this.workDir = config.workDir().map(Path::of).orElse(defaultWorkDir);
        this.maxConcurrent = Math.max(1, config.maxConcurrent().orElse(Runtime.getRuntime().availableProcessors() - 1));
        LOG.infof("real jobs: job-runner %s, at most %d at once, work directory %s", config.runnerJar().orElse("(none)"),
                maxConcurrent, workDir);
    }

    /**
     * A runner's Kafka settings as environment variables: plaintext where the dispatcher speaks plaintext; else the
     * dispatcher's protocol and mechanism with the runner's own login, or none (the runner then stops, naming
     * KAFKA_SASL_JAAS_CONFIG) so that it never inherits the dispatcher's credentials.
     */
    static Map<String, String> runnerKafkaEnvironment(KafkaClientAuth dispatcher, Optional<String> runnerJaasConfig) {
        if (!dispatcher.sasl()) {
            return KafkaClientAuth.PLAINTEXT.environment();
        }
        if (runnerJaasConfig.isEmpty()) {
            LOG.warn("real jobs: the broker needs SASL and gantry.real-jobs.kafka-sasl-jaas-config is not set;"
                    + " job-runners cannot report, so real jobs will fail");
            Map<String, String> env = new HashMap<>(dispatcher.environment());
            env.put(KafkaClientAuth.JAAS_CONFIG_ENV, "");
            return env;
        }
        return dispatcher.withJaasConfig(runnerJaasConfig.get()).environment();
    }

    public int maxConcurrent() {
        return maxConcurrent;
    }

    /** Queues the stint; it starts when a slot is free. */
    public synchronized void start(RunningJob job, TrainingSpec spec, Ended ended) {
        if (closed) {
            return;
        }
        waiting.add(new Run(job, spec, ended));
        startWaiting();
    }

    /** Stops the stint: out of the queue, or SIGTERM (the runner writes a checkpoint and exits). True if it was known. */
    public synchronized boolean stop(String jobId, int attempt) {
        for (Run r : waiting) {
            if (r.job.jobId().equals(jobId) && r.job.attempt() == attempt) {
                waiting.remove(r);
                return true;
            }
        }
        Run r = active.get(jobId);
        if (r != null && r.job.attempt() == attempt) {
            r.stopped = true;
            if (r.process != null) {
                r.process.destroy(); // SIGTERM
            }
            return true;
        }
        return false;
    }

    /**
     * Restarts the job's run with {@code spec} (a re-tune): a run still waiting just takes the new spec; a running one
     * gets SIGTERM (the runner writes a checkpoint and exits, reporting nothing) and the new run, first in line for
     * the slot, resumes from that checkpoint once the old process is gone. False when the job has no run here.
     */
    public synchronized boolean restart(RunningJob job, TrainingSpec spec) {
        Run current = active.get(job.jobId());
        Run queued = waiting.stream().filter(r -> r.job.jobId().equals(job.jobId())).findFirst().orElse(null);
        Run old = queued != null ? queued : current;
        if (old == null || old.stopped || closed || Files.exists(jobDir(job.jobId())
                .resolve("checkpoints/result-" + job.attempt() + ".json"))) {
            return false; // nothing to restart: not here, or its training is over (its result is written)
        }
        if (queued != null) {
            waiting.remove(queued);
        } else {
            current.stopped = true;
            if (current.process != null) {
                current.process.destroy(); // SIGTERM: a checkpoint, then exit 0
            }
        }
        waiting.addFirst(new Run(job, spec, old.ended));
        startWaiting();
        return true;
    }

    /** Runs waiting and running now. */
    public synchronized int[] counts() {
        return new int[]{waiting.size(), active.size()};
    }

    private synchronized void startWaiting() {
        while (!closed && active.size() < maxConcurrent && !waiting.isEmpty()) {
            Run r = waiting.poll();
            active.put(r.job.jobId(), r);
            Thread t = new Thread(() -> supervise(r), "real-job-" + r.job.jobId());
            t.setDaemon(true);
            t.start();
        }
    }

    /** How a run ended: completed, or failed with a reason (killed for memory or not). */
    private record Outcome(boolean completed, String reason, boolean oomKilled) {
        static final Outcome COMPLETED = new Outcome(true, null, false);

        static Outcome failed(String reason) {
            return new Outcome(false, reason, false);
        }
    }

    /** Runs the stint's job-runner to its end and reports that end, unless the run was stopped or all are closed. */
    private void supervise(Run r) {
        Outcome outcome = null;
        try {
            outcome = runToEnd(r);
        } catch (IOException e) {
            outcome = Outcome.failed("cannot start job-runner: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = Outcome.failed("interrupted while job-runner ran");
        } catch (RuntimeException e) {
            outcome = Outcome.failed("job-runner supervision failed: " + e);
        } finally {
            synchronized (this) {
                active.remove(r.job.jobId(), r);
                startWaiting();
            }
            report(r, outcome);
        }
    }

    /** How the run ended; null when it was stopped (a preemption) or all runs are closed: nothing to report. */
    private Outcome runToEnd(Run r) throws IOException, InterruptedException {
        awaitPrevious(r);
        if (r.stopped || closed) {
            return null;
        }
        Path dir = prepareDir(r);
        if (config.runnerJar().isEmpty() || !Files.isRegularFile(Path.of(config.runnerJar().get()))) {
            return Outcome.failed("no job-runner to run this training job: gantry.real-jobs.runner-jar is "
                    + config.runnerJar().map(j -> "'" + j + "', which does not exist").orElse("not set")
                    + " (build it: ./mvnw -B -DskipTests package -pl job-runner -am)");
        }
        Path log = dir.resolve("runner-" + r.job.attempt() + ".log");
        Process p = launch(r, dir, log);
        if (p == null) {
            return null;
        }
        LOG.infof("job %s attempt %d: job-runner pid %d started (log %s)", r.job.jobId(), r.job.attempt(), p.pid(), log);
        Outcome killed = watch(r, p);
        if (killed != null) {
            return killed;
        }
        int code = p.exitValue();
        if (r.stopped) {
            LOG.infof("job %s attempt %d: job-runner stopped (exit %d)", r.job.jobId(), r.job.attempt(), code);
            return null;
        }
        Path result = dir.resolve("checkpoints/result-" + r.job.attempt() + ".json");
        if (code == 0 && Files.exists(result)) {
            return Outcome.COMPLETED;
        }
        return Outcome.failed(RunnerExits.failureReason(dir, log, code));
    }

    /** Waits for the job's previous process: the preempted attempt may still be writing its checkpoint. */
    private void awaitPrevious(Run r) throws InterruptedException {
        Process previous;
        synchronized (this) {
            previous = lastProcess.get(r.job.jobId());
        }
        if (previous != null && previous.isAlive()) {
            // The preempted attempt is still writing its checkpoint: the new one must resume from it.
            if (!previous.waitFor(60, TimeUnit.SECONDS)) {
                previous.destroyForcibly();
            }
        }
    }

    /** The job's directory, with the previous attempt's failure note gone. */
    private Path prepareDir(Run r) throws IOException {
        Path dir = jobDir(r.job.jobId());
        Files.createDirectories(dir.resolve("checkpoints"));
        Files.deleteIfExists(dir.resolve("checkpoints/failure.txt"));
        return dir;
    }

    /** Starts the job-runner, its output appended to {@code log}; null when the run was stopped first. */
    private Process launch(Run r, Path dir, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command(r, dir)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("OMP_NUM_THREADS", "1");
        pb.environment().putAll(runnerKafkaEnv);
        synchronized (this) {
            if (r.stopped || closed) {
                return null;
            }
            // Written under the lock with the stop check: a run replaced by a re-tune never writes its older spec.
            Files.writeString(dir.resolve("spec.json"), EventCodec.mapper().writeValueAsString(r.spec),
                    StandardCharsets.UTF_8);
            Process p = pb.start();
            r.process = p;
            lastProcess.put(r.job.jobId(), p);
            return p;
        }
    }

    /**
     * Waits for the runner to exit; kills it, and tells why, when its resident set goes over the pod's memory request
     * (like a container's memory limit) or it runs past the timeout. Null when it exited by itself.
     */
    private Outcome watch(Run r, Process p) throws InterruptedException {
        Duration timeout = config.runTimeout();
        long deadline = System.nanoTime() + timeout.toNanos();
        long limitMib = r.job.perTask().memoryMib();
        // Like a container's memory limit: the pod's memory request, checked on the runner's resident set.
        while (!p.waitFor(250, TimeUnit.MILLISECONDS)) {
            long rssMib = RunnerExits.residentMib(p.pid());
            if (limitMib > 0 && rssMib > limitMib && !r.stopped) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                return new Outcome(false, "OOMKilled: job-runner's resident memory reached " + rssMib + " MiB, above "
                        + "its memory request of " + limitMib + " MiB; it needs at least " + rssMib + " MiB", true);
            }
            if (System.nanoTime() > deadline) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                return Outcome.failed("job-runner did not finish within " + timeout
                        + " (gantry.real-jobs.run-timeout); killed");
            }
        }
        return null;
    }

    /** Tells the run's callback how it ended, unless it was stopped or all runs are closed. */
    private void report(Run r, Outcome outcome) {
        if (closed || r.stopped || outcome == null) {
            return;
        }
        if (outcome.completed()) {
            r.ended.completed(r.job);
        } else if (outcome.reason() != null) {
            LOG.warnf("job %s attempt %d failed: %s", r.job.jobId(), r.job.attempt(), outcome.reason());
            r.ended.failed(r.job, outcome.reason(), outcome.oomKilled());
        }
    }

    private List<String> command(Run r, Path dir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String opt : config.javaOpts().trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.addAll(List.of("-Dai.djl.offline=true", "-Dai.djl.pytorch.num_threads=1",
                "-Dai.djl.pytorch.num_interop_threads=1", "-jar", config.runnerJar().orElseThrow(),
                "--spec", dir.resolve("spec.json").toString(), "--job-id", r.job.jobId(),
                "--attempt", String.valueOf(r.job.attempt()), "--checkpoint-dir", dir.resolve("checkpoints").toString(),
                "--datasets", Path.of(config.datasetsDir()).toAbsolutePath().toString(),
                "--bootstrap", bootstrap, "--parent-pid", String.valueOf(ProcessHandle.current().pid())));
        if (r.job.decision().user() != null) {
            cmd.addAll(List.of("--user", r.job.decision().user()));
        }
        return cmd;
    }

    /** One directory per job id (a job id may hold '/'; the hash keeps two similar ids apart). */
    Path jobDir(String jobId) {
        String safe = jobId.replaceAll("[^A-Za-z0-9._-]", "_");
        if (!safe.equals(jobId)) {
            safe = safe + "-" + Integer.toHexString(jobId.hashCode());
        }
        return workDir.resolve(safe);
    }

    /** Stops every runner (each writes a checkpoint) and waits a little for them. */
    public void close() {
        List<Process> running = new ArrayList<>();
        synchronized (this) {
            closed = true;
            waiting.clear();
            for (Run r : active.values()) {
                r.stopped = true;
                if (r.process != null) {
                    running.add(r.process);
                }
            }
        }
        running.forEach(Process::destroy);
        for (Process p : running) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
