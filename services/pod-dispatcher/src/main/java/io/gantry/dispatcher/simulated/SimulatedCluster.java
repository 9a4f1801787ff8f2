package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.config.RealJobsConfig;
import io.gantry.dispatcher.config.SimulatedClusterConfig;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.dispatcher.messaging.TunedSpecReader;
import io.gantry.dispatcher.kubernetes.ClusterAnnouncements;
import io.gantry.dispatcher.mapping.Amounts;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.Resources;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
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

    private static final Logger LOG = Logger.getLogger(SimulatedCluster.class);

    private final SimulatedClusterConfig config;
    private final SimulatedClock clock;
    private final SimulatedNodes nodes;
    private final Map<String, RunningJob> running = new LinkedHashMap<>();
    private final DecidedStints decided = new DecidedStints();
    private final CancelledJobs cancelled = new CancelledJobs();
    private final ScheduledThreadPoolExecutor timers;
    private final TrainingSpecSource specs;
    /** Null when real jobs cannot run here (tests of the trace-only cluster). */
    private final RealJobProcesses realJobs;
    private volatile boolean stopping;
    /** Where a real job killed for memory is submitted again with the memory it needed. */
    private final MemoryRetries memoryRetries;

    /** The suffix of a real job's retry after a memory kill: a job whose id ends with it is not retried again. */
    public static final String MEMORY_RETRY_SUFFIX = MemoryRetries.SUFFIX;

    /** A cluster of trace jobs only: every job sleeps for its duration. */
    public SimulatedCluster(SimulatedClusterConfig config) {
        this(config, TrainingSpecSource.NONE, null, null);
    }

    @Inject
    public SimulatedCluster(SimulatedClusterConfig config, RealJobsConfig realJobsConfig, TunedSpecReader reader,
                            @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap, KafkaClientAuth kafkaAuth,
                            ClusterAnnouncements announcements, io.micrometer.core.instrument.MeterRegistry registry) {
        this(config, reader, new RealJobProcesses(realJobsConfig, bootstrap, kafkaAuth, RealJobProcesses.defaultWorkDir()),
                announcements::submitted);
        reader.onRetune(this::retune);
        reader.start();
        memoryRetries.register(registry);
    }

    public SimulatedCluster(SimulatedClusterConfig config, TrainingSpecSource specs, RealJobProcesses realJobs,
                            java.util.function.Consumer<JobSubmitted> resubmit) {
        this.memoryRetries = new MemoryRetries(resubmit);
        this.specs = specs;
        this.realJobs = realJobs;
        this.config = SimulatedClusterSettings.checked(config);
        this.clock = new SimulatedClock(config.speedup());
        this.nodes = new SimulatedNodes(config, clock.nowEpochSeconds());
        this.timers = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "simulated-cluster-timers");
            t.setDaemon(true);
            return t;
        });
        timers.setRemoveOnCancelPolicy(true);
        LOG.infof("simulated cluster: %s, speedup %.0f, default duration %.0f s", SimulatedNodes.describe(config),
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
        if (!decided.markDecided(decision.jobId(), decision.attempt())) {
            return new BindOutcome.AlreadyDecided(decision.jobId());
        }
        if (cancelled.asked(decision.jobId(), decision.user())) {
            return new BindOutcome.Refused("cancelled", JobCancelRequested.REASON);
        }
        Resources perTask = Amounts.resources(decision.perTask());
        BindOutcome.Refused refused = nodes.refusal(decision.nodes(), perTask);
        if (refused != null) {
            return refused;
        }
        double now = clock.nowEpochSeconds();
        nodes.allocate(decision.nodes(), perTask, now);
        double duration = decision.durationS() != null ? decision.durationS() : config.defaultDurationS();
        RunningJob job = new RunningJob(decision, decision.nodes(), perTask, duration, now, null, training);
        running.put(job.jobId(), job);
        return new BindOutcome.Bound();
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
        JobPreempted preempted = stopStint(victim, StintEvents.stopReason(victim, forDecision));
        if (preempted != null) {
            events.report(preempted, null);
        }
    }

    /** What to announce of the victim's stint, or null when it has ended already. */
    private synchronized JobPreempted stopStint(Preemption victim, String reason) {
        RunningJob job = running.get(victim.jobId());
        if (job != null && job.attempt() == victim.attempt()) {
            return StintEvents.preempted(job, reason, halt(job));
        }
        if (decided.markDecided(victim.jobId(), victim.attempt())) {
            return StintEvents.preemptedBeforeDecision(victim, reason);
        }
        return null;
    }

    /** Stops a running stint (a real one's runner gets SIGTERM and checkpoints); returns the simulated seconds it ran. */
    private double halt(RunningJob job) {
        if (job.completion() != null) {
            job.completion().cancel(false);
        }
        double ranS = Math.max(0.0, clock.nowEpochSeconds() - job.startedAtSimSeconds());
        if (job.real()) {
            realJobs.stop(job.jobId(), job.attempt());
        } else {
            // Capped by its duration: a stint whose timer is due but still waits for this lock ran exactly that long.
            ranS = Math.min(job.durationS(), ranS);
        }
        finish(job);
        return ranS;
    }

    /** The owner's request: a running stint stops and fails "cancelled"; an unbound job's decision is refused. */
    @Override
    public synchronized JobFailed cancel(JobCancelRequested request) {
        RunningJob job = running.get(request.jobId());
        if (job == null) {
            cancelled.remember(request);
            return null;
        }
        if (!request.user().equals(job.decision().user())) {
            return null;
        }
        halt(job);
        return StintEvents.failed(job, JobCancelRequested.REASON, false);
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
        realJobs.start(job, job.training(), new RunnerEnds(this, events));
    }

    void completeReal(RunningJob job, JobEvents events) {
        double ranS = Math.max(0.0, clock.nowEpochSeconds() - job.startedAtSimSeconds());
        if (stopping || !finish(job)) {
            return;
        }
        events.report(StintEvents.completed(job, ranS), null);
    }

    void failReal(RunningJob job, JobEvents events, String reason, boolean oomKilled) {
        if (stopping || !finish(job)) {
            return;
        }
        events.report(StintEvents.failed(job, reason, oomKilled), oomKilled ? "oom_killed" : "real_job_failed");
        if (oomKilled && memoryRetries.retries(job.jobId())) {
            memoryRetries.retry(job, reason);
        }
    }

    /**
     * A running real job re-tuned ({@code JobTuned} update, newest revision): when its batch size changed, its runner
     * is restarted with the new spec (SIGTERM, a checkpoint, then it resumes in the same job directory). The stint stays
     * bound: nothing is bound, announced or released again. A job not running takes its newest revision when bound.
     */
    public synchronized boolean retune(String jobId, TrainingSpec spec) {
        RunningJob job = running.get(jobId);
        if (job == null || !job.real() || stopping || realJobs == null
                || java.util.Objects.equals(job.training().batchSize(), spec.batchSize())) {
            return false;
        }
        RunningJob retuned = job.withTraining(spec);
        running.put(jobId, retuned);
        LOG.infof("job %s attempt %d re-tuned: batch size %d -> %d; restarting its runner from its checkpoint", jobId,
                job.attempt(), job.training().batchSize(), spec.batchSize());
        return realJobs.restart(retuned, spec);
    }

    /** Real jobs killed for memory and submitted again. */
    public int memoryRetries() {
        return memoryRetries.count();
    }

    private void complete(RunningJob job, JobEvents events) {
        if (stopping || !finish(job)) {
            return;
        }
        events.report(StintEvents.completed(job, job.durationS()), null);
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
        synchronized (this) {
            decided.markDecided(history);
        }
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
            return StintEvents.completedWhileDown(stint, endedAt, durationS);
        }
        Resources perTask = Amounts.resources(stint.perTask());
        if (!nodes.fits(stint.nodes(), perTask)) {
            return StintEvents.overlapped(stint, ranS);
        }
        double now = clock.nowEpochSeconds();
        nodes.allocate(stint.nodes(), perTask, now);
        SchedulingDecision asDecided = decision != null ? decision : StintEvents.decisionOf(stint, durationS);
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

    /** Ends the stint and releases its resources; false when it is not running (completed or preempted before). */
    private synchronized boolean finish(RunningJob job) {
        RunningJob current = running.get(job.jobId());
        if (current == null || current.attempt() != job.attempt()) {
            return false;
        }
        running.remove(job.jobId());
        nodes.release(job.nodes(), job.perTask(), clock.nowEpochSeconds());
        return true;
    }

    /** Every node with its capacity, allocation, pods and CPU idle counters at one simulated instant. */
    public synchronized ClusterSnapshot snapshot() {
        return nodes.snapshot(clock.nowEpochSeconds(), running.values());
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
}
