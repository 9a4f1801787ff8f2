package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.config.RealJobsConfig;
import io.gantry.dispatcher.config.SimulatedClusterConfig;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.dispatcher.messaging.TunedSpecReader;
import io.gantry.dispatcher.kubernetes.ClusterAnnouncements;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Fake nodes that run pods for their duration in accelerated real time, like KWOK (DESIGN §2). The allocation
 * model is scheduling-core's {@link ClusterState}, so the simulated cluster refuses exactly what the scheduler's
 * model would refuse and is never over-allocated.
 *
 * <p>Simulated pods use exactly what they request: the utilisation the nodes report (CPU idle time, GPU
 * utilisation, available memory) is derived from the requests of the pods running on them, never random.
 *
 * <p>Completions are timers on one {@link ScheduledThreadPoolExecutor} (a heap ordered by due time, nanosecond
 * delays), not a thread per pod, so a speedup of 10⁵ and more with thousands of pods costs one thread.
 *
 * <p>A decision may name running jobs to preempt first ({@link #preempt}): their timers are cancelled, their
 * resources released, and each stint is reported {@link JobPreempted} with how long it ran, so the scheduler can
 * queue the job again with the rest of its run as a later attempt.
 *
 * <p>A job whose {@code JobTuned} carries a training spec is a real job: it is charged to its nodes like any pod, but
 * instead of a timer a {@code job-runner} process trains it on this machine ({@link RealJobProcesses}, at most
 * {@code gantry.real-jobs.max-concurrent} at once); the runner's exit ends the stint, completed or failed. Preempting
 * it sends the runner SIGTERM (it writes a checkpoint), and the job's next attempt resumes from that checkpoint.
 *
 * <p>State lives in memory, yet pods outlive a restart of the dispatcher, as on a real cluster: {@link #resume} takes
 * the stints still running on the lifecycle topic back onto their nodes with the rest of their run.
 */
// Created at startup by DispatcherRecovery (through ClusterSelection) when it is the selected cluster, so the
// simulated clock and the exposition run from startup; never created in Kubernetes mode.
// Typed: the cluster the others inject is ClusterSelection's choice, not this bean.
@Typed(SimulatedCluster.class)
@ApplicationScoped
public class SimulatedCluster implements ClusterBackend {

    static final String RESTORE_OVERLAP_REASON = "stopped when pod-dispatcher restarted: a later start holds its "
            + "room (its preemption was under way when the dispatcher stopped)";

    private static final Logger LOG = Logger.getLogger(SimulatedCluster.class);
    /** Job ids remembered for "never bound twice"; far more than any replay keeps in flight. */
    private static final int REMEMBERED_JOBS = 1_000_000;
    /** The highest attempt of a job that has ended for good: no stint of it is bound again. */
    private static final int EVERY_ATTEMPT = Integer.MAX_VALUE;

    private final SimulatedClusterConfig config;
    private final SimulatedClock clock;
    private final ClusterState state;
    private final Map<String, CpuIdleAccount> idleByNode = new HashMap<>();
    private final Map<String, RunningJob> running = new LinkedHashMap<>();
    /** Per job, the highest attempt decided: a decision for that attempt or an earlier one is a duplicate. */
    private final Map<String, Integer> decidedAttempts = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > REMEMBERED_JOBS;
        }
    };
    private final ScheduledThreadPoolExecutor timers;
    private final TrainingSpecSource specs;
    /** Null when real jobs cannot run here (tests of the trace-only cluster). */
    private final RealJobProcesses realJobs;
    private volatile boolean stopping;
    /** Where a real job killed for memory is submitted again with the memory it needed; null: no retry. */
    private final java.util.function.Consumer<JobSubmitted> resubmit;
    private final java.util.concurrent.atomic.AtomicInteger memoryRetries = new java.util.concurrent.atomic.AtomicInteger();

    /** The suffix of a real job's retry after a memory kill: a job whose id ends with it is not retried again. */
    public static final String MEMORY_RETRY_SUFFIX = "-mem-retry";

    /** A cluster of trace jobs only: every job sleeps for its duration. */
    public SimulatedCluster(SimulatedClusterConfig config) {
        this(config, TrainingSpecSource.NONE, null);
    }

    @Inject
    public SimulatedCluster(SimulatedClusterConfig config, RealJobsConfig realJobsConfig, TunedSpecReader reader,
                            @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap,
                            ClusterAnnouncements announcements, io.micrometer.core.instrument.MeterRegistry registry) {
        this(config, reader, new RealJobProcesses(realJobsConfig, bootstrap, defaultWorkDir()), announcements::submitted);
        reader.start();
        io.micrometer.core.instrument.Gauge.builder("gantry_dispatcher_memory_retries", memoryRetries,
                        java.util.concurrent.atomic.AtomicInteger::get)
                .description("Real jobs killed for memory and submitted again with the memory they needed")
                .register(registry);
    }

    private static Path defaultWorkDir() {
        String data = System.getenv("GANTRY_DATA_DIR");
        return data != null && !data.isBlank() ? Path.of(data, "real-jobs")
                : Path.of(System.getProperty("java.io.tmpdir"), "gantry-real-jobs-" + ProcessHandle.current().pid());
    }

    public SimulatedCluster(SimulatedClusterConfig config, TrainingSpecSource specs, RealJobProcesses realJobs) {
        this(config, specs, realJobs, null);
    }

    public SimulatedCluster(SimulatedClusterConfig config, TrainingSpecSource specs, RealJobProcesses realJobs,
                            java.util.function.Consumer<JobSubmitted> resubmit) {
        this.resubmit = resubmit;
        this.specs = specs;
        this.realJobs = realJobs;
        if (config.nodes() < 1) {
            throw new IllegalArgumentException("gantry.simulated-cluster.nodes must be at least 1, was " + config.nodes());
        }
        if (!(config.speedup() > 0) || Double.isInfinite(config.speedup())) {
            throw new IllegalArgumentException("gantry.simulated-cluster.speedup must be a positive number, was "
                    + config.speedup());
        }
        if (!(config.defaultDurationS() >= 0)) {
            throw new IllegalArgumentException("gantry.simulated-cluster.default-duration-s must be >= 0, was "
                    + config.defaultDurationS());
        }
        this.config = config;
        this.clock = new SimulatedClock(config.speedup());
        Resources shape = Resources.ofGpus(config.gpusPerNode(), config.vcpusPerNode(), config.memoryGibPerNode());
        List<NodeSpec> nodeSpecs = new ArrayList<>();
        for (int i = 1; i <= config.nodes(); i++) {
            String name = String.format("sim-node-%02d", i);
            nodeSpecs.add(new NodeSpec(name, shape));
            idleByNode.put(name, new CpuIdleAccount(config.vcpusPerNode(), clock.nowEpochSeconds()));
        }
        this.state = new ClusterState(nodeSpecs);
        this.timers = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "simulated-cluster-timers");
            t.setDaemon(true);
            return t;
        });
        timers.setRemoveOnCancelPolicy(true);
        LOG.infof("simulated cluster: %d nodes of %d GPU / %d vCPU / %d GiB, speedup %.0f, default duration %.0f s",
                config.nodes(), config.gpusPerNode(), config.vcpusPerNode(), config.memoryGibPerNode(),
                config.speedup(), config.defaultDurationS());
    }

    /**
     * Places task {@code i} of the decision on {@code nodes.get(i)}, all or nothing. Refuses, charging nothing,
     * when a node is unknown or the tasks do not fit in what is free. A stint decided before, or one older than a
     * stint decided before, is never bound.
     */
    @Override
    public BindOutcome bind(SchedulingDecision decision) {
        // Outside the lock: learning whether it is a real job may wait for the tuned topic to be read.
        return bind(decision, specs.specFor(decision));
    }

    private synchronized BindOutcome bind(SchedulingDecision decision, TrainingSpec training) {
        if (!markDecided(decision.jobId(), decision.attempt())) {
            return new BindOutcome.AlreadyDecided(decision.jobId());
        }
        ResourceAmounts p = decision.perTask();
        Resources perTask = new Resources(p.gpuMilli(), p.cpuMilli(), p.memoryMib());
        Map<String, Integer> tasksPerNode = tasksPerNode(decision.nodes());
        for (Map.Entry<String, Integer> e : tasksPerNode.entrySet()) {
            if (!state.hasNode(e.getKey())) {
                return new BindOutcome.Refused("unknown_node", "node " + e.getKey() + " is not in the simulated cluster");
            }
            NodeState node = state.node(e.getKey());
            Resources needed = perTask.times(e.getValue());
            if (!node.fits(needed)) {
                return new BindOutcome.Refused("insufficient_resources", e.getValue() + " task(s) of " + describe(perTask)
                        + " do not fit on " + node.name() + ": free " + describe(node.free()));
            }
        }
        double now = clock.nowEpochSeconds();
        tasksPerNode.keySet().forEach(n -> idleByNode.get(n).advanceTo(now, state.node(n).allocated()));
        for (String node : decision.nodes()) {
            state.allocate(node, perTask);
        }
        double duration = decision.durationS() != null ? decision.durationS() : config.defaultDurationS();
        RunningJob job = new RunningJob(decision, decision.nodes(), perTask, duration, now, null, training);
        running.put(job.jobId(), job);
        return new BindOutcome.Bound();
    }

    /** Records the job's stint {@code attempt} as decided; false when it, or a later one, was decided before. */
    private boolean markDecided(String jobId, int attempt) {
        Integer highest = decidedAttempts.get(jobId);
        if (highest != null && highest >= attempt) {
            return false;
        }
        decidedAttempts.put(jobId, attempt);
        return true;
    }

    @Override
    public boolean startsOnBind() {
        return true;
    }

    /**
     * Stops the victim's stint if it is running: its completion is cancelled, its resources released, and it is
     * reported preempted with the simulated seconds it ran. If its decision has not come yet (decisions for
     * different jobs may travel on different partitions), that stint is marked decided, so the decision is ignored
     * when it comes, and reported preempted having run 0 s, so the scheduler queues the job again. A stint that
     * has ended (completed, preempted before, refused) is left alone.
     */
    @Override
    public void preempt(Preemption victim, SchedulingDecision forDecision, JobEvents events) {
        String reason = "preempted to make room for job " + forDecision.jobId() + " (decision of "
                + forDecision.policy() + " " + forDecision.policyVersion() + ")";
        JobPreempted preempted = stopStint(victim, reason);
        if (preempted != null) {
            events.report(preempted, null);
        }
    }

    /** What to announce of the victim's stint, or null when it has ended already. */
    private synchronized JobPreempted stopStint(Preemption victim, String reason) {
        RunningJob job = running.get(victim.jobId());
        if (job != null && job.attempt() == victim.attempt()) {
            if (job.completion() != null) {
                job.completion().cancel(false);
            }
            double ranS = Math.max(0.0, clock.nowEpochSeconds() - job.startedAtSimSeconds());
            if (job.real()) {
                realJobs.stop(job.jobId(), job.attempt()); // SIGTERM: it checkpoints, the next attempt resumes
            } else {
                // Capped by its duration: a stint whose timer is due but still waits for this lock ran exactly that long.
                ranS = Math.min(job.durationS(), ranS);
            }
            finish(job);
            SchedulingDecision d = job.decision();
            return new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(), d.user(),
                    d.nodes(), d.perTask(), reason, job.attempt(), ranS);
        }
        if (markDecided(victim.jobId(), victim.attempt())) {
            // Nothing of it is known here but its id: no user, nodes or resources were ever held.
            return new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), victim.jobId(), null,
                    List.of(), null, reason + ", before its own decision arrived", victim.attempt(), 0.0);
        }
        return null;
    }

    /**
     * Starts the stint's clock: after its duration (in simulated time) its resources are released and its
     * completion reported, unless it was preempted before. Called once the start is announced, so a completion can
     * never overtake it.
     */
    @Override
    public void run(SchedulingDecision decision, JobEvents events) {
        synchronized (this) {
            RunningJob job = running.get(decision.jobId());
            if (job == null || job.attempt() != decision.attempt() || stopping) {
                return;
            }
            if (job.real()) {
                startRunner(job, events);
                return;
            }
            // Scheduled under the lock, so a timer that is due at once cannot finish the stint before it is stored.
            ScheduledFuture<?> timer = timers.schedule(() -> complete(job, events), clock.wallNanosFor(job.durationS()),
                    TimeUnit.NANOSECONDS);
            running.put(job.jobId(), job.withCompletion(timer));
        }
    }

    /** Hands a real job to a job-runner process; its exit ends the stint. */
    private void startRunner(RunningJob job, JobEvents events) {
        if (realJobs == null) {
            timers.execute(() -> failReal(job, events, "real training jobs cannot run in this cluster", false));
            return;
        }
        realJobs.start(job, job.training(), new RealJobProcesses.Ended() {
            @Override
            public void completed(RunningJob j) {
                completeReal(j, events);
            }

            @Override
            public void failed(RunningJob j, String reason, boolean oomKilled) {
                failReal(j, events, reason, oomKilled);
            }
        });
    }

    private void completeReal(RunningJob job, JobEvents events) {
        double ranS = Math.max(0.0, clock.nowEpochSeconds() - job.startedAtSimSeconds());
        if (stopping || !finish(job)) {
            return;
        }
        SchedulingDecision d = job.decision();
        events.report(new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(),
                d.user(), d.nodes(), d.perTask(), d.submittedAt(), ranS), null);
    }

    private void failReal(RunningJob job, JobEvents events, String reason, boolean oomKilled) {
        if (stopping || !finish(job)) {
            return;
        }
        SchedulingDecision d = job.decision();
        events.report(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(), d.user(),
                d.nodes(), d.perTask(), reason, oomKilled), oomKilled ? "oom_killed" : "real_job_failed");
        if (oomKilled && resubmit != null && !d.jobId().endsWith(MEMORY_RETRY_SUFFIX)) {
            retryWithMemory(job, reason);
        }
    }

    /**
     * Submits a memory-killed real job once more, as {@code <job>-mem-retry}, with a memory request of what it
     * reached plus a quarter (rounded up to 64 MiB), so the retry is placed where that fits. Counted in
     * {@code gantry_dispatcher_memory_retries}.
     */
    private void retryWithMemory(RunningJob job, String reason) {
        SchedulingDecision d = job.decision();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("needs at least (\\d+) MiB").matcher(reason);
        long needed = m.find() ? Long.parseLong(m.group(1)) : d.perTask().memoryMib() * 2;
        long request = Math.min(io.gantry.events.Limits.MAX_MEMORY_MIB_PER_TASK, (needed * 5 / 4 + 63) / 64 * 64);
        ResourceAmounts perTask = new ResourceAmounts(d.perTask().gpuMilli(), d.perTask().cpuMilli(), request);
        JobSubmitted retry = new JobSubmitted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(),
                d.jobId() + MEMORY_RETRY_SUFFIX, d.user(), d.jobId() + MEMORY_RETRY_SUFFIX, null, d.nodes().size(),
                perTask, null, null, null, null, true, job.training());
        memoryRetries.incrementAndGet();
        LOG.infof("job %s was killed for memory (%s); submitted again as %s with %d MiB", d.jobId(), reason,
                retry.jobId(), request);
        resubmit.accept(retry);
    }

    /** Real jobs killed for memory and submitted again. */
    public int memoryRetries() {
        return memoryRetries.get();
    }

    private void complete(RunningJob job, JobEvents events) {
        if (stopping || !finish(job)) {
            return;
        }
        SchedulingDecision d = job.decision();
        events.report(new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(),
                d.user(), d.nodes(), d.perTask(), d.submittedAt(), job.durationS()), null);
    }

    /**
     * Picks up after a restart as a real cluster would: its pods did not stop because the dispatcher did. Every stint
     * on the lifecycle topic counts as decided. Each stint still running there runs on: the simulated time since its
     * start (the downtime included) counts as run, and what is left of its duration is timed again; one whose duration
     * has passed is reported completed at the moment it ended. Stints are taken back newest start first, and one
     * that no longer fits its nodes is reported preempted (a stop whose {@code JobPreempted} was lost in the crash
     * while the start that took its room was written): the later start wins, as the scheduler only places into room
     * it believes free.
     */
    @Override
    public void resume(LifecycleHistoryReader.History history, JobEvents events) {
        markDecided(history);
        if (specs instanceof TunedSpecReader reader && !history.stillRunning().isEmpty()) {
            reader.awaitCaughtUp(java.time.Duration.ofSeconds(30)); // which of the running stints are real jobs
        }
        List<JobStarted> newestFirst = new ArrayList<>(history.stillRunning().values());
        newestFirst.sort(Comparator.comparing(JobStarted::occurredAt).reversed());
        Map<String, Integer> outcomes = new TreeMap<>();
        for (JobStarted stint : newestFirst) {
            SchedulingDecision d = history.runningDecisions().get(stint.jobId());
            double durationS = d != null && d.durationS() != null ? d.durationS() : config.defaultDurationS();
            TrainingSpec training = specs.knownSpec(stint.jobId());
            LifecycleEvent ended = takeBack(stint, d, durationS, training, events);
            String outcome = ended == null ? "running" : ended instanceof JobCompleted ? "completed while down"
                    : "preempted by a later start";
            outcomes.merge(outcome, 1, Integer::sum);
            if (ended != null) {
                events.report(ended, null);
            }
        }
        LOG.infof("resumed from the topics: %d job(s) dispatched before, %d stint(s) still running: %s",
                history.seenJobIds().size(), newestFirst.size(), outcomes);
    }

    /** Puts a stint that ran before the restart back on its nodes; what to announce when it cannot run on. */
    private synchronized LifecycleEvent takeBack(JobStarted stint, SchedulingDecision decision, double durationS,
                                                 TrainingSpec training, JobEvents events) {
        double ranS = Math.max(0, Duration.between(stint.occurredAt(), Instant.now()).toNanos() / 1e9 * clock.speedup());
        // A real job's runner died with the dispatcher (it watches its parent) after a checkpoint: it runs again below.
        if (training == null && ranS >= durationS) {
            Instant endedAt = stint.occurredAt().plusNanos(clock.wallNanosFor(durationS));
            return new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, endedAt, stint.jobId(), stint.user(),
                    stint.nodes(), stint.perTask(), stint.submittedAt(), durationS);
        }
        Resources perTask = new Resources(stint.perTask().gpuMilli(), stint.perTask().cpuMilli(),
                stint.perTask().memoryMib());
        Map<String, Integer> tasksPerNode = tasksPerNode(stint.nodes());
        boolean fits = tasksPerNode.entrySet().stream().allMatch(e -> state.hasNode(e.getKey())
                && state.node(e.getKey()).fits(perTask.times(e.getValue())));
        if (!fits) {
            return new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), stint.jobId(),
                    stint.user(), stint.nodes(), stint.perTask(), RESTORE_OVERLAP_REASON, stint.attempt(), ranS);
        }
        double now = clock.nowEpochSeconds();
        tasksPerNode.keySet().forEach(n -> idleByNode.get(n).advanceTo(now, state.node(n).allocated()));
        stint.nodes().forEach(n -> state.allocate(n, perTask));
        SchedulingDecision asDecided = decision != null ? decision : decisionOf(stint, durationS);
        if (training != null) {
            RunningJob job = new RunningJob(asDecided, stint.nodes(), perTask, durationS, now - ranS, null, training);
            running.put(job.jobId(), job);
            startRunner(job, events);
            return null;
        }
        RunningJob job = new RunningJob(asDecided, stint.nodes(), perTask, durationS, now - ranS, null);
        ScheduledFuture<?> timer = timers.schedule(() -> complete(job, events), clock.wallNanosFor(durationS - ranS),
                TimeUnit.NANOSECONDS);
        running.put(job.jobId(), job.withCompletion(timer));
        return null;
    }

    /** The decision a stint was started by, as far as its JobStarted tells, when the decisions topic lost it. */
    private static SchedulingDecision decisionOf(JobStarted s, double durationS) {
        return new SchedulingDecision(s.eventId(), GantryEvent.SCHEMA_VERSION, s.occurredAt(), s.jobId(), s.user(),
                s.nodes(), s.perTask(), durationS, s.submittedAt(), "unknown", s.policyVersion(), s.attempt(), List.of());
    }

    private static Map<String, Integer> tasksPerNode(List<String> nodes) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String node : nodes) {
            out.merge(node, 1, Integer::sum);
        }
        return out;
    }

    private synchronized void markDecided(LifecycleHistoryReader.History history) {
        history.highestAttempts().forEach((jobId, attempt) -> decidedAttempts.merge(jobId, attempt, Math::max));
        history.endedJobIds().forEach(jobId -> decidedAttempts.put(jobId, EVERY_ATTEMPT));
    }

    /** Ends the stint and releases its resources; false when it is not running (completed or preempted before). */
    private synchronized boolean finish(RunningJob job) {
        RunningJob current = running.get(job.jobId());
        if (current == null || current.attempt() != job.attempt()) {
            return false;
        }
        running.remove(job.jobId());
        double now = clock.nowEpochSeconds();
        for (String node : new LinkedHashSet<>(job.nodes())) {
            idleByNode.get(node).advanceTo(now, state.node(node).allocated());
        }
        for (String node : job.nodes()) {
            state.release(node, job.perTask());
        }
        return true;
    }

    /** Every node with its capacity, allocation, pods and CPU idle counters at one simulated instant. */
    public synchronized ClusterSnapshot snapshot() {
        double now = clock.nowEpochSeconds();
        Map<String, List<ClusterSnapshot.Pod>> podsByNode = new HashMap<>();
        for (RunningJob job : running.values()) {
            for (int i = 0; i < job.nodes().size(); i++) {
                podsByNode.computeIfAbsent(job.nodes().get(i), n -> new ArrayList<>())
                        .add(new ClusterSnapshot.Pod(job.podName(i), job.jobId(), job.decision().user(), job.perTask()));
            }
        }
        List<ClusterSnapshot.Node> nodes = new ArrayList<>();
        for (NodeState n : state.nodes()) {
            CpuIdleAccount idle = idleByNode.get(n.name());
            idle.advanceTo(now, n.allocated());
            nodes.add(new ClusterSnapshot.Node(n.name(), n.capacity(), n.allocated(),
                    podsByNode.getOrDefault(n.name(), List.of()), idle.idleSecondsPerCpu()));
        }
        return new ClusterSnapshot(now, nodes);
    }

    @Override
    public synchronized int runningJobs() {
        return running.size();
    }

    @PreDestroy
    void stop() {
        // Pending completions are dropped, not run against a closing emitter; the cluster is in-memory anyway.
        stopping = true;
        if (realJobs != null) {
            realJobs.close(); // each runner writes a checkpoint and exits
        }
        List<Runnable> pending = timers.shutdownNow();
        if (!pending.isEmpty()) {
            LOG.infof("simulated cluster stopped with %d job(s) still running", pending.size());
        }
    }

    private static String describe(Resources r) {
        return String.format("%.3f GPU / %d mCPU / %d MiB", r.gpus(), r.cpuMilli(), r.memoryMib());
    }
}
