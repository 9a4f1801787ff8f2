package io.gantry.scheduler.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobRejected;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.UserPriority;
import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.OrderedQueueScheduling;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.framework.SortedPendingQueue;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live scheduler's whole state and its rules, without threads or Kafka: the pending queue, the nodes, and
 * what each running job holds. Like kube-scheduler's cache, a decision reserves its resources at once, and the
 * reservation is released by the job's completed, failed or preempted event. Not thread-safe: {@link
 * SchedulerLoop} runs every call on one thread.
 *
 * <p><b>Preemption</b> (when enabled): the policy's {@link SchedulingPolicy#decide} may stop running jobs, exactly as
 * in the simulator. A stopped job's resources go to the placements of the same round at once; the stop travels in
 * every decision placed into its room until the stop is confirmed ({@link SchedulingDecision#preempts()}), so the
 * dispatcher stops before it binds whichever of them it reads first. The stopped job waits, holding nothing, until
 * its {@code JobPreempted} says how long it ran; it is then queued for its next attempt with the rest of its run and
 * the service it received (which preemptive policies weigh).
 */
public final class SchedulerState {

    /**
     * A job that received a decision for its {@code attempt}-th start and still holds resources (or, while
     * stopping, held them). {@code job} is null for a job restored from a decision whose submission is no longer on
     * the tuned topic: it can be released, not re-queued. {@code startedAt} is on the jobs' clock.
     */
    private record Running(JobTuned job, List<String> nodes, Resources perTask, int attempt, double startedAt,
                           double attainedGpuSBefore, double ranSBefore) {

        double gpus() {
            return perTask.gpus() * nodes.size();
        }
    }

    private SchedulingPolicy policy;
    private String policyVersion;
    private final double defaultPriority;
    private final JobClock clock;
    private final boolean preemption;
    private final ClusterState cluster = new ClusterState(List.of());
    private final Set<String> unschedulableNodes = new HashSet<>();
    private final Map<String, PendingJob> pending = new LinkedHashMap<>();
    private final Map<String, Running> running = new HashMap<>();
    /** Jobs stopped by a decision whose {@code JobPreempted} has not come yet: they hold nothing and wait for it. */
    private final Map<String, Running> stopping = new HashMap<>();
    /**
     * Every job id ever queued, with its {@code JobTuned}'s event id ("" when restored without one): a redelivered
     * submission is never queued twice, and a new submission that reuses a job's id is refused.
     */
    private final Map<String, String> known = new HashMap<>();
    private final Map<String, Double> priorities = new HashMap<>();
    /** Set when the policy's queue order is fixed per job: pending jobs then stay sorted between rounds. */
    private OrderedQueueScheduling ordered;
    private SortedPendingQueue sorted;
    /** Each pending job as the policy sees it (as added to {@link #sorted}). */
    private final Map<String, JobRequest> requests = new HashMap<>();
    /** Jobs queued since the last round: if nothing was freed since, only these can be placed now. */
    private final List<JobRequest> arrivedSinceRound = new ArrayList<>();
    private boolean capacityMayHaveGrown = true;
    /** Pending jobs not yet judged against the current nodes for "can this ever fit". */
    private final Set<String> uncheckedForFit = new java.util.LinkedHashSet<>();

    /**
     * @param clock      the jobs' clock the policy sees time on
     * @param preemption whether the policy may stop running jobs ({@code gantry.scheduler.preemption})
     */
    public SchedulerState(SchedulingPolicy policy, String policyVersion, double defaultPriority, JobClock clock,
                          boolean preemption) {
        this.defaultPriority = defaultPriority;
        this.clock = clock;
        this.preemption = preemption;
        usePolicy(policy, policyVersion);
    }

    /** Real time, no preemption: the scheduler as it was before it could stop jobs. */
    public SchedulerState(SchedulingPolicy policy, String policyVersion, double defaultPriority) {
        this(policy, policyVersion, defaultPriority, JobClock.WALL, false);
    }

    /**
     * From the next round on, {@code policy} decides and decisions name {@code version} (a promotion of the
     * online learner). The queue is kept; it is re-sorted if the new policy keeps one fixed order.
     */
    public void usePolicy(SchedulingPolicy policy, String version) {
        this.policy = policy;
        this.policyVersion = version;
        this.ordered = policy instanceof OrderedQueueScheduling o && o.fixedQueueOrder() != null ? o : null;
        this.sorted = ordered == null ? null : new SortedPendingQueue(ordered.fixedQueueOrder());
        if (sorted != null) {
            requests.values().forEach(sorted::add);
        }
        capacityMayHaveGrown = true; // a new policy may place what the old one held back
    }

    // Each update below answers whether it can change what a round decides, so that the many node-metric
    // and progress events that change nothing cost no round.

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
            addPending(new PendingJob(job));
            return true;
        }
        if (first.isEmpty() || first.equals(job.eventId())) {
            return false;
        }
        throw new InvalidEventException("jobId", "'" + job.jobId() + "' is already the id of another job (tuned as "
                + "event " + first + "); submit a new job under a new id");
    }

    private void addPending(PendingJob p) {
        JobRequest r = p.toRequest(priorities.getOrDefault(p.job().user(), defaultPriority), clock);
        pending.put(r.id(), p);
        requests.put(r.id(), r);
        if (sorted != null) {
            sorted.add(r);
        }
        arrivedSinceRound.add(r);
        uncheckedForFit.add(r.id());
    }

    private PendingJob removePending(String jobId) {
        PendingJob p = pending.remove(jobId);
        JobRequest r = requests.remove(jobId);
        if (sorted != null && r != null) {
            sorted.remove(r);
        }
        return p;
    }

    /** Takes a node's capacity and schedulability; true when either changed. */
    public boolean updateNode(NodeMetrics m) {
        if (m.stale()) {
            return false; // stale numbers say nothing new about capacity; keep what we know
        }
        Resources capacity = new Resources(m.capacity().gpuMilli(), m.capacity().cpuMilli(), m.capacity().memoryMib());
        boolean isNew = !cluster.hasNode(m.node());
        boolean changed = isNew || !cluster.node(m.node()).capacity().equals(capacity);
        if (changed) {
            cluster.upsertNode(new NodeSpec(m.node(), capacity));
            if (isNew) {
                reserveRestoredJobsOn(m.node());
            }
            // Capacity changed: every pending job's fit must be judged again.
            uncheckedForFit.addAll(pending.keySet());
        }
        boolean schedulabilityChanged = m.schedulable() ? unschedulableNodes.remove(m.node())
                : unschedulableNodes.add(m.node());
        capacityMayHaveGrown |= changed || schedulabilityChanged;
        return changed || schedulabilityChanged;
    }

    /** True when the user's priority changed. */
    public boolean updatePriority(UserPriority p) {
        Double old = priorities.put(p.user(), p.priority());
        if (old != null && old == p.priority()) {
            return false;
        }
        // The user's queued jobs move in the order: take them out and queue them again at the new priority.
        List<PendingJob> mine = pending.values().stream().filter(j -> j.job().user().equals(p.user())).toList();
        mine.forEach(j -> removePending(j.job().jobId()));
        mine.forEach(this::addPending);
        capacityMayHaveGrown = true; // the whole queue must be walked in its new order
        return true;
    }

    /** Applies a lifecycle event: finished, failed and preempted jobs give their resources back. */
    public boolean onLifecycle(LifecycleEvent e) {
        switch (e.type()) {
            case "JobCompleted", "JobFailed" -> {
                return release(e.jobId()) != null | stopping.remove(e.jobId()) != null;
            }
            case "JobPreempted" -> {
                return preempted((JobPreempted) e);
            }
            case "JobRejected" -> {
                return removePending(e.jobId()) != null;
            }
            default -> {
                return false; // started and progress: the reservation was made with the decision
            }
        }
    }

    /**
     * A stint ended by preemption: ours (the job is stopping) or the cluster's (it was running). The job is queued
     * for its next attempt. A stop of any other stint (redelivered after a restart, which already counted it) changes
     * nothing.
     */
    private boolean preempted(JobPreempted e) {
        Running r = stopping.get(e.jobId());
        if (r != null && r.attempt() == e.attempt()) {
            stopping.remove(e.jobId());
        } else if ((r = running.get(e.jobId())) != null && r.attempt() == e.attempt()) {
            release(e.jobId());
        } else {
            return false;
        }
        double ran = e.ranS() != null ? e.ranS() : Math.max(0, clock.seconds(e.occurredAt()) - r.startedAt());
        if (r.job() != null) {
            addPending(new PendingJob(r.job(), r.attempt() + 1, r.attainedGpuSBefore() + ran * r.gpus(),
                    r.ranSBefore() + ran));
        }
        return true;
    }

    /**
     * Takes the state the topics held before a restart (folded per job by {@link RestorePlan}), on an empty state:
     * waiting jobs are queued, stopping ones wait for their stop, and running ones hold their nodes again, even
     * beyond what the scheduler's numbers say is free (the cluster runs them; see {@link ClusterState#hold}).
     * Reservations on nodes not known yet are made when the node first reports ({@link #reserveRestoredJobsOn}).
     */
    public void restore(RestorePlan plan) {
        plan.tunedEventIds().forEach(known::putIfAbsent);
        plan.pending().forEach(this::addPending);
        plan.stopping().forEach(s -> stopping.put(s.jobId(), restored(s)));
        for (RestorePlan.Stint s : plan.running()) {
            Running r = restored(s);
            running.put(s.jobId(), r);
            for (String node : r.nodes()) {
                if (cluster.hasNode(node)) {
                    cluster.hold(node, r.perTask());
                }
            }
        }
        capacityMayHaveGrown = true;
    }

    private Running restored(RestorePlan.Stint s) {
        SchedulingDecision d = s.decision();
        Resources perTask = new Resources(d.perTask().gpuMilli(), d.perTask().cpuMilli(), d.perTask().memoryMib());
        return new Running(s.job(), d.nodes(), perTask, d.attempt(), clock.seconds(d.occurredAt()),
                s.attainedGpuSBefore(), s.ranSBefore());
    }

    private void reserveRestoredJobsOn(String node) {
        for (Running r : running.values()) {
            for (String n : r.nodes()) {
                if (n.equals(node)) {
                    cluster.hold(node, r.perTask());
                }
            }
        }
    }

    private Running release(String jobId) {
        Running r = running.remove(jobId);
        if (r != null) {
            for (String node : r.nodes()) {
                if (cluster.hasNode(node)) {
                    cluster.release(node, r.perTask());
                }
            }
            capacityMayHaveGrown = true;
        }
        return r;
    }

    /** One scheduling round: rejects jobs that can never fit, asks the policy, reserves what it placed. */
    public SchedulingOutcome schedule(Instant now) {
        if (pending.isEmpty() || cluster.size() == 0) {
            return SchedulingOutcome.NONE;
        }
        List<JobRejected> rejections = rejectUnfit(now);
        ClusterState schedulable = schedulableView();
        double nowS = clock.seconds(now);
        Decision decision;
        if (ordered != null) {
            decision = Decision.placeOnly(scheduleInOrder(nowS, schedulable));
        } else if (preemption) {
            decision = policy.decide(preemptiveContext(nowS, schedulable));
        } else {
            decision = Decision.placeOnly(policy.schedule(new SchedulingContext(nowS, List.copyOf(requests.values()),
                    schedulable)));
        }
        arrivedSinceRound.clear();
        capacityMayHaveGrown = false;
        stop(decision.preemptions(), decision.placements());
        List<SchedulingDecision> decisions = new ArrayList<>(decision.placements().size());
        for (Placement placement : decision.placements()) {
            PendingJob p = removePending(placement.jobId());
            if (p == null) {
                throw new IllegalStateException("policy " + policy.name() + " placed unknown job " + placement.jobId());
            }
            Resources perTask = p.perTask();
            for (String node : placement.nodes()) {
                cluster.allocate(node, perTask); // refuses an over-allocation: a policy bug must not bind
            }
            running.put(p.job().jobId(), new Running(p.job(), placement.nodes(), perTask, p.attempt(), nowS,
                    p.attainedGpuS(), p.ranS()));
            JobTuned j = p.job();
            decisions.add(new SchedulingDecision(Events.newId(), GantryEvent.SCHEMA_VERSION, now, j.jobId(), j.user(),
                    placement.nodes(), j.perTask(), p.remainingDurationS(), j.submittedAt(), policy.name(),
                    policyVersion, p.attempt(), stopsBefore(placement)));
        }
        return new SchedulingOutcome(decisions, rejections);
    }

    /**
     * What a preemptive policy needs beyond the queue: the running jobs it may stop (not those submitted as not
     * preemptible, which it sees only as occupied room) and the service each job received.
     */
    private SchedulingContext preemptiveContext(double nowS, ClusterState schedulable) {
        List<RunningJob> runningJobs = new ArrayList<>(running.size());
        for (Map.Entry<String, Running> e : running.entrySet()) {
            Running r = e.getValue();
            if (r.job() != null && r.job().preemptible()) {
                JobRequest asRequest = new PendingJob(r.job(), r.attempt(), r.attainedGpuSBefore(), r.ranSBefore())
                        .toRequest(priorities.getOrDefault(r.job().user(), defaultPriority), clock);
                runningJobs.add(new RunningJob(asRequest, r.nodes(), r.startedAt(), r.attainedGpuSBefore()));
            }
        }
        Map<String, Double> attained = new HashMap<>();
        pending.forEach((id, p) -> {
            if (p.attainedGpuS() > 0) {
                attained.put(id, p.attainedGpuS());
            }
        });
        return new SchedulingContext(nowS, List.copyOf(requests.values()), schedulable, runningJobs, attained);
    }

    /**
     * Takes the policy's victims off their nodes; they stop for real once a decision carries the stop out. A victim
     * on whose nodes nothing of this round is placed keeps running: its room would only stand idle.
     */
    private void stop(List<String> victims, List<Placement> placements) {
        for (String id : victims) {
            Running r = running.get(id);
            if (r == null) {
                throw new IllegalStateException("policy " + policy.name() + " preempted " + id + ", which is not running");
            }
            if (placements.stream().anyMatch(p -> sharesANode(r, p))) {
                release(id);
                stopping.put(id, r);
            }
        }
    }

    /**
     * The stops a placement carries: every stopped job not yet confirmed preempted that held room on its nodes.
     * Decisions travel on different partitions, so the dispatcher may read any of them first; whichever it reads
     * first stops the job (a stop is matched on job and attempt, so the others change nothing).
     */
    private List<Preemption> stopsBefore(Placement placement) {
        List<Preemption> out = new ArrayList<>();
        stopping.forEach((id, r) -> {
            if (sharesANode(r, placement)) {
                out.add(new Preemption(id, r.attempt()));
            }
        });
        return out;
    }

    private static boolean sharesANode(Running r, Placement p) {
        return r.nodes().stream().anyMatch(p.nodes()::contains);
    }

    /**
     * A round that costs what it places: the queue is already in the policy's order, and when nothing was
     * freed since the last round, jobs that did not fit then cannot fit now, so only new arrivals are offered.
     */
    private List<Placement> scheduleInOrder(double nowS, ClusterState schedulable) {
        if (capacityMayHaveGrown) {
            return ordered.scheduleInOrder(nowS, schedulable, sorted.inOrder(), sorted.smallestRequest());
        }
        List<JobRequest> arrived = new ArrayList<>(arrivedSinceRound.size());
        for (JobRequest r : arrivedSinceRound) {
            if (requests.get(r.id()) == r) {
                arrived.add(r); // still pending, not re-queued at another priority since
            }
        }
        arrived.sort(sorted.order());
        return ordered.scheduleInOrder(nowS, schedulable, arrived.iterator(), GangPlacer.smallestRequest(arrived));
    }

    /** Jobs bigger than every node (per task) or than the whole cluster (the gang) will never run. */
    private List<JobRejected> rejectUnfit(Instant now) {
        List<JobRejected> out = new ArrayList<>();
        if (uncheckedForFit.isEmpty()) {
            return out;
        }
        Resources total = cluster.totalCapacity();
        List<NodeState> nodes = cluster.nodes();
        for (String jobId : uncheckedForFit) {
            PendingJob p = pending.get(jobId);
            if (p == null) {
                continue; // decided or gone since it was queued
            }
            Resources perTask = p.perTask();
            String reason = null;
            if (nodes.stream().noneMatch(n -> n.capacity().covers(perTask))) {
                reason = "each task requests " + describe(perTask) + "; no node has that much capacity";
            } else if (!total.covers(perTask.times(p.job().tasks()))) {
                reason = "the gang of " + p.job().tasks() + " tasks needs more than the whole cluster";
            }
            if (reason != null) {
                removePending(jobId);
                JobTuned j = p.job();
                out.add(new JobRejected(Events.newId(), GantryEvent.SCHEMA_VERSION, now, j.jobId(), j.user(),
                        "sac-scheduler", "perTask", reason));
            }
        }
        uncheckedForFit.clear();
        return out;
    }

    /** The cluster as the policy may use it: cordoned (unschedulable) nodes are left out. */
    ClusterState schedulableView() {
        return unschedulableNodes.isEmpty() ? cluster : cluster.without(unschedulableNodes);
    }

    private static String describe(Resources r) {
        return r.gpus() + " GPU, " + r.cpuMilli() / 1000.0 + " vCPU, " + r.memoryMib() + " MiB";
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
        return pending.values().stream().map(PendingJob::job).toList();
    }

    public List<NodeState> nodes() {
        return cluster.nodes();
    }

    public String policyName() {
        return policy.name();
    }

    public String policyVersion() {
        return policyVersion;
    }
}
