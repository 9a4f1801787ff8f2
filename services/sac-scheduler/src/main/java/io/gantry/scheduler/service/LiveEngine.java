package io.gantry.scheduler.service;

import io.gantry.events.InvalidEventException;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobRejected;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.UserPriority;
import io.gantry.scheduler.mapping.Amounts;
import io.gantry.scheduler.mapping.Decisions;
import io.gantry.scheduler.mapping.JobRequests;
import io.gantry.scheduling.engine.Allocator;
import io.gantry.scheduling.engine.Clock;
import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.gpushare.DevicePlacement;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.NodeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live side of the {@link SchedulingEngine}: what the scheduler knows from its topics, turned into the engine's
 * calls, and the engine's rounds turned into decisions and rejections. The engine keeps the queue, the running jobs
 * and the round rules, the same engine the simulator drives (so a decision here is the one the simulator would make
 * on the same inputs); this class keeps only what is live: the submissions behind the jobs, attempts, jobs stopping,
 * restore, node and priority updates, and rejecting what can never fit. Like kube-scheduler's cache, a decision
 * reserves its resources at once, and the reservation is released by the job's completed, failed or preempted event.
 * Not thread-safe: {@link SchedulerLoop} runs every call on one thread.
 *
 * <p><b>Preemption</b> (when enabled): a victim of the policy's {@link io.gantry.scheduling.framework.Decision} is
 * always stopped, as in the simulator: its room is free for the placements of the same round and later ones at once,
 * and the stop travels in every decision placed into its room until the stop is confirmed
 * ({@link SchedulingDecision#preempts()}), so the dispatcher stops before it binds whichever of them it reads first.
 * The stopped job waits, holding nothing, until its {@code JobPreempted} says how long it ran; it is then queued for
 * its next attempt with the rest of its run and the service it received (which preemptive policies weigh).
 *
 * <p><b>GPU sharing</b> ({@code gantry.scheduler.gpu-placement}): a {@link DevicePlacement} behind the policy chooses
 * each started job's node and GPU devices, which its decision carries; restore holds the devices decisions name.
 */
public final class LiveEngine {

    private String policyVersion;
    private final double defaultPriority;
    private final Clock clock;
    private final ClusterState cluster = new ClusterState(List.of());
    private final SchedulingEngine engine;
    /** Null unless GPU-sharing placement is on. */
    private final DevicePlacement devices;
    private final WaitingJobs pending;
    private final Map<String, LiveStint> running = new HashMap<>();
    /** Jobs stopped by a decision whose {@code JobPreempted} has not come yet: they hold nothing and wait for it. */
    private final StoppingJobs stopping = new StoppingJobs();
    private final KnownJobs known = new KnownJobs();
    private final RunningRetunes retunes;

    /**
     * @param clock      the jobs' clock the policy sees time on
     * @param preemption whether the policy may stop running jobs ({@code gantry.scheduler.preemption})
     * @param devices    the GPU-sharing plugin that places per device, null for none
     */
    public LiveEngine(SchedulingPolicy policy, String policyVersion, double defaultPriority, Clock clock,
                      boolean preemption, DevicePlacement devices) {
        this.defaultPriority = defaultPriority;
        this.clock = clock;
        this.policyVersion = policyVersion;
        this.devices = devices;
        Allocator reserve = Allocator.of(cluster);
        this.engine = new SchedulingEngine(placing(policy), cluster, devices == null ? reserve
                : devices.allocator(reserve), preemption);
        this.pending = new WaitingJobs(engine, clock, defaultPriority);
        this.retunes = new RunningRetunes(pending, stopping, running, this::release, cluster, clock);
    }

    public LiveEngine(SchedulingPolicy policy, String policyVersion, double defaultPriority, Clock clock,
                      boolean preemption) {
        this(policy, policyVersion, defaultPriority, clock, preemption, null);
    }

    private SchedulingPolicy placing(SchedulingPolicy policy) {
        return devices == null ? policy : devices.wrap(policy);
    }

    /**
     * From the next round on, {@code policy} decides and decisions name {@code version} (a promotion of the
     * online learner). The queue is kept; it is re-sorted if the new policy keeps one fixed order.
     */
    public void usePolicy(SchedulingPolicy policy, String version) {
        engine.usePolicy(placing(policy));
        this.policyVersion = version;
    }

    // Each update below answers whether it can change what a round decides: events that change nothing cost no round.

    /**
     * Queues a tuned job; false for a redelivery of a job seen before (the event changes nothing). A redelivery
     * carries the same event id even when the tuner tuned the submission again after a crash (its event id derives
     * from the submission's).
     *
     * @throws InvalidEventException when another job already has this id: a second submission may not reuse it, since
     *         every event about a job is keyed and matched by its id
     */
    public boolean enqueue(JobTuned job) {
        String first = known.putIfAbsent(job.jobId(), job.eventId());
        if (first == null) {
            pending.add(new PendingJob(job));
            return true;
        }
        if (first.isEmpty() || first.equals(job.eventId())) {
            return false;
        }
        throw new InvalidEventException("jobId", "'" + job.jobId() + "' is already the id of another job (tuned as "
                + "event " + first + "); submit a new job under a new id");
    }

    /** A re-tune of a job while it runs: {@link RunningRetunes#apply}; true when a round may decide something new. */
    public boolean retune(JobTuned t) {
        return retunes.apply(t);
    }

    /** Takes a pending job out of the queue (its owner cancelled it); false when it is not pending. */
    public boolean withdraw(String jobId) {
        if (pending.remove(jobId) == null) {
            return false;
        }
        known.ended(jobId);
        retunes.ended(jobId);
        return true;
    }

    /** Takes a node's capacity and schedulability; true when either changed. */
    public boolean updateNode(NodeMetrics m) {
        if (m.stale()) {
            return false; // stale numbers say nothing new about capacity; keep what we know
        }
        NodeSpec node = Decisions.node(m);
        boolean isNew = !cluster.hasNode(m.node());
        boolean changed = isNew || !cluster.node(m.node()).capacity().equals(node.capacity());
        if (changed) {
            cluster.upsertNode(node);
            if (devices != null) {
                devices.upsertNode(node.name(), node.capacity());
            }
            if (isNew) {
                reserveRestoredJobsOn(m.node());
            }
            pending.judgeFitAgain();
            engine.capacityChanged();
        }
        boolean schedulabilityChanged = engine.setSchedulable(m.node(), m.schedulable());
        return changed || schedulabilityChanged;
    }

    /** True when the user's priority changed. */
    public boolean updatePriority(UserPriority p) {
        return pending.updatePriority(p);
    }

    /** Applies a lifecycle event: finished, failed and preempted jobs give their resources back. */
    public boolean onLifecycle(LifecycleEvent e) {
        switch (e.type()) {
            case "JobCompleted", "JobFailed" -> {
                known.ended(e.jobId());
                retunes.ended(e.jobId());
                // Waiting too when it was re-sized: its stint ended before the stop reached it; nothing is left to run.
                return release(e.jobId()) != null | stopping.remove(e.jobId()) != null
                        | pending.remove(e.jobId()) != null;
            }
            case "JobPreempted" -> {
                return preempted((JobPreempted) e);
            }
            case "JobStarted" -> {
                return startConfirmed((JobStarted) e);
            }
            case "JobRejected" -> {
                known.ended(e.jobId());
                retunes.ended(e.jobId());
                return pending.remove(e.jobId()) != null;
            }
            default -> {
                return false; // progress: the reservation was made with the decision
            }
        }
    }

    /**
     * A stint ended by preemption: ours (the job is stopping) or the cluster's (it was running). The job is queued
     * for its next attempt. A stop of any other stint (redelivered after a restart, which already counted it) changes
     * nothing.
     */
    private boolean preempted(JobPreempted e) {
        LiveStint r = stopping.get(e.jobId());
        if (r != null && r.attempt() == e.attempt()) {
            stopping.remove(e.jobId());
        } else if ((r = running.get(e.jobId())) != null && r.attempt() == e.attempt()) {
            release(e.jobId());
        } else {
            return false;
        }
        if (pending.contains(e.jobId()) || running.containsKey(e.jobId())) {
            return true; // stopped for a re-size: its next attempt was queued when it was re-tuned
        }
        double ran = e.ranS() != null ? e.ranS() : Math.max(0, clock.seconds(e.occurredAt()) - r.startedAt());
        if (r.job() != null) {
            pending.add(new PendingJob(r.job(), r.attempt() + 1, r.attainedGpuSBefore() + ran * r.gpus(),
                    r.ranSBefore() + ran));
        }
        return true;
    }

    /** A policy may stop a stint once the cluster says it started (if its job allows); true if that may matter. */
    private boolean startConfirmed(JobStarted e) {
        LiveStint r = running.get(e.jobId());
        if (r == null || r.attempt() != e.attempt() || r.job() == null || !r.job().preemptible()) {
            return false;
        }
        engine.setPreemptible(e.jobId(), true);
        return !pending.isEmpty();
    }

    /**
     * Takes the state the topics held before a restart (folded per job by {@link RestorePlan}), on an empty state:
     * waiting jobs are queued, stopping ones wait for their stop, and running ones hold their nodes again, even
     * beyond what the scheduler's numbers say is free (the cluster runs them; see {@link ClusterState#hold}).
     * Reservations on nodes not known yet are made when the node first reports ({@link #reserveRestoredJobsOn}).
     */
    public void restore(RestorePlan plan) {
        plan.tunedEventIds().forEach(known::putIfAbsent);
        plan.pending().forEach(pending::add);
        plan.stopping().forEach(s -> stopping.put(s.jobId(), restored(s)));
        known.endAllBut(plan.liveJobIds());
        plan.pending().forEach(p -> retunes.restored(p.job()));
        plan.stopping().forEach(st -> retunes.restored(st.job()));
        plan.running().forEach(st -> retunes.restored(st.job()));
        for (RestorePlan.Stint s : plan.running()) {
            LiveStint r = restored(s);
            running.put(s.jobId(), r);
            retunes.resizeOnceNodesKnown(r);
            RunningJob job = asRunningJob(s.jobId(), r, s.decision(), s.startConfirmed());
            engine.restoreRunning(job);
            for (String node : r.nodes()) {
                if (cluster.hasNode(node)) {
                    cluster.hold(node, r.perTask());
                }
            }
            if (devices != null) {
                devices.hold(job.job(), r.nodes(), s.decision().gpuDevices());
            }
        }
    }

    private LiveStint restored(RestorePlan.Stint s) {
        SchedulingDecision d = s.decision();
        return new LiveStint(s.job(), d.nodes(), Amounts.resources(d.perTask()), d.attempt(), clock.seconds(d.occurredAt()),
                s.attainedGpuSBefore(), s.ranSBefore());
    }

    /** A restored stint as the engine keeps it: what the policy sees of a running job. */
    private RunningJob asRunningJob(String jobId, LiveStint r, SchedulingDecision d, boolean startConfirmed) {
        JobRequest job = r.job() != null
                ? pending.request(new PendingJob(r.job(), r.attempt(), r.attainedGpuSBefore(), r.ranSBefore()))
                : JobRequests.decidedOnly(jobId, d.user(), r.nodes().size(), r.perTask(), clock.seconds(d.submittedAt()),
                        defaultPriority);
        // The room the stint holds, which a re-tune not carried out yet asks to change (RunningRetunes).
        job = new JobRequest(job.id(), job.user(), r.nodes().size(), r.perTask(), job.submitTime(), job.priority(),
                job.predictedDurationS(), job.trueDurationS());
        // A stint whose submission is gone cannot be queued again, so it may not be stopped either; nor one not yet
        // confirmed started (startConfirmed).
        boolean preemptible = r.job() != null && r.job().preemptible() && startConfirmed;
        return new RunningJob(job, r.nodes(), r.startedAt(), r.attainedGpuSBefore(), preemptible);
    }

    private void reserveRestoredJobsOn(String node) {
        running.values().forEach(r -> r.nodes().stream().filter(node::equals)
                .forEach(n -> cluster.hold(n, r.perTask())));
    }

    private LiveStint release(String jobId) {
        LiveStint r = running.remove(jobId);
        if (r != null) {
            engine.release(jobId);
        }
        return r;
    }

    /** One scheduling round now on the jobs' clock (exactly its {@link Clock#now()}, as a virtual clock stands). */
    public SchedulingOutcome schedule() {
        double nowS = clock.now();
        return round(clock.instant(nowS), nowS);
    }

    /**
     * One scheduling round at wall instant {@code now}: rejects jobs that can never fit, lets the engine run the
     * round, turns what it started and stopped into decisions.
     */
    public SchedulingOutcome schedule(Instant now) {
        return round(now, clock.seconds(now));
    }

    private SchedulingOutcome round(Instant now, double nowS) {
        if (cluster.size() == 0) {
            return SchedulingOutcome.NONE;
        }
        retunes.resizeRestored();
        List<JobRejected> rejections = pending.rejectUnfit(cluster, now);
        SchedulingEngine.Round round = engine.round(nowS);
        Set<String> stoppedNow = new HashSet<>();
        List<Preemption> stops = new ArrayList<>(round.stopped().size());
        for (RunningJob victim : round.stopped()) {
            LiveStint r = running.remove(victim.job().id());
            stopping.put(victim.job().id(), r);
            stoppedNow.add(victim.job().id());
            stops.add(new Preemption(victim.job().id(), r.attempt()));
        }
        List<SchedulingDecision> decisions = new ArrayList<>(round.started().size());
        String policy = engine.policy().name();
        for (RunningJob started : round.started()) {
            PendingJob p = pending.started(started.job().id());
            running.put(p.job().jobId(), new LiveStint(p.job(), started.nodes(), p.perTask(), p.attempt(), nowS,
                    p.attainedGpuS(), p.ranS()));
            // Until the cluster says it started (startConfirmed): a stop before that is judged on a state not yet seen.
            engine.setPreemptible(p.job().jobId(), false);
            decisions.add(Decisions.started(now, p.job(), started.nodes(), p.remainingDurationS(), policy, policyVersion,
                    p.attempt(), stopping.stopsBefore(p.job().jobId(), started.nodes(), stoppedNow),
                    devices == null ? List.of() : devices.devicesOf(p.job().jobId())));
        }
        return new SchedulingOutcome(decisions, rejections, stops);
    }

    /** The engine's next wake-up on the jobs' clock, NaN when none is due. */
    public double wakeAtSeconds() {
        return engine.wakeAt();
    }

    /** When the policy asked for the next round even if nothing happens; null when it did not. */
    public Instant wakeAt() {
        double w = engine.wakeAt();
        return Double.isNaN(w) ? null : clock.instant(w);
    }

    /** The cluster as the policy may use it: cordoned (unschedulable) nodes are left out. */
    ClusterState schedulableView() {
        return engine.view();
    }

    public int pendingCount() {
        return pending.size();
    }

    public int runningCount() {
        return running.size();
    }

    /** Jobs stopped by a decision and not yet confirmed preempted. */
    public int stoppingCount() {
        return stopping.size();
    }

    /** The queue in the policy's order is the policy's business; this is arrival order, for people. */
    public List<JobTuned> pendingJobs() {
        return pending.inArrivalOrder().stream().map(PendingJob::job).toList();
    }

    public List<NodeState> nodes() {
        return cluster.nodes();
    }

    public String policyName() {
        return engine.policy().name();
    }

    public String policyVersion() {
        return policyVersion;
    }
}
