package io.gantry.scheduler.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobRejected;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.UserPriority;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.OrderedQueueScheduling;
import io.gantry.scheduling.framework.Placement;
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
 */
public final class SchedulerState {

    /**
     * A job that received a decision and still holds resources. {@code job} is null for a job restored from
     * a decision whose submission is no longer on the tuned topic: it can be released, not re-queued.
     */
    private record Running(JobTuned job, List<String> nodes, Resources perTask) {
    }

    private SchedulingPolicy policy;
    private String policyVersion;
    private final double defaultPriority;
    private final ClusterState cluster = new ClusterState(List.of());
    private final Set<String> unschedulableNodes = new HashSet<>();
    private final Map<String, PendingJob> pending = new LinkedHashMap<>();
    private final Map<String, Running> running = new HashMap<>();
    /** Every job id ever queued: a redelivered or duplicated submission is never queued twice. */
    private final Set<String> known = new HashSet<>();
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

    public SchedulerState(SchedulingPolicy policy, String policyVersion, double defaultPriority) {
        this.defaultPriority = defaultPriority;
        usePolicy(policy, policyVersion);
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

    /** Queues a tuned job; false when the job id was seen before (the event changes nothing). */
    public boolean enqueue(JobTuned job) {
        if (!known.add(job.jobId())) {
            return false;
        }
        addPending(new PendingJob(job));
        return true;
    }

    private void addPending(PendingJob p) {
        JobRequest r = p.toRequest(priorities.getOrDefault(p.job().user(), defaultPriority));
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
                return release(e.jobId()) != null;
            }
            case "JobPreempted" -> {
                Running r = release(e.jobId());
                if (r != null && r.job() != null) {
                    addPending(new PendingJob(r.job()));
                }
                return r != null;
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
     * Restores a decision made before a restart: the job holds its nodes again. Reservations on nodes not
     * known yet are made when the node first reports ({@link #reserveRestoredJobsOn}).
     */
    public void restoreDecision(SchedulingDecision d) {
        if (running.containsKey(d.jobId())) {
            return;
        }
        known.add(d.jobId());
        PendingJob p = removePending(d.jobId());
        Resources perTask = new Resources(d.perTask().gpuMilli(), d.perTask().cpuMilli(), d.perTask().memoryMib());
        running.put(d.jobId(), new Running(p == null ? null : p.job(), d.nodes(), perTask));
        for (String node : d.nodes()) {
            if (cluster.hasNode(node)) {
                cluster.allocate(node, perTask);
            }
        }
    }

    private void reserveRestoredJobsOn(String node) {
        for (Running r : running.values()) {
            for (String n : r.nodes()) {
                if (n.equals(node)) {
                    cluster.allocate(node, r.perTask());
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
        double nowS = now.getEpochSecond() + now.getNano() / 1e9;
        List<Placement> placements = ordered != null ? scheduleInOrder(nowS, schedulable)
                : policy.schedule(new SchedulingContext(nowS, List.copyOf(requests.values()), schedulable));
        arrivedSinceRound.clear();
        capacityMayHaveGrown = false;
        List<SchedulingDecision> decisions = new ArrayList<>(placements.size());
        for (Placement placement : placements) {
            PendingJob p = removePending(placement.jobId());
            if (p == null) {
                throw new IllegalStateException("policy " + policy.name() + " placed unknown job " + placement.jobId());
            }
            Resources perTask = p.perTask();
            for (String node : placement.nodes()) {
                cluster.allocate(node, perTask); // refuses an over-allocation: a policy bug must not bind
            }
            running.put(p.job().jobId(), new Running(p.job(), placement.nodes(), perTask));
            JobTuned j = p.job();
            decisions.add(new SchedulingDecision(Events.newId(), GantryEvent.SCHEMA_VERSION, now, j.jobId(), j.user(),
                    placement.nodes(), j.perTask(), j.durationS(), j.submittedAt(), policy.name(), policyVersion));
        }
        return new SchedulingOutcome(decisions, rejections);
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
