package io.gantry.scheduler.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobRejected;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.UserPriority;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
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

    /** A job that received a decision and still holds resources. */
    private record Running(JobTuned job, List<String> nodes, Resources perTask) {
    }

    private final SchedulingPolicy policy;
    private final String policyVersion;
    private final double defaultPriority;
    private final ClusterState cluster = new ClusterState(List.of());
    private final Set<String> unschedulableNodes = new HashSet<>();
    private final Map<String, PendingJob> pending = new LinkedHashMap<>();
    private final Map<String, Running> running = new HashMap<>();
    /** Every job id ever queued: a redelivered or duplicated submission is never queued twice. */
    private final Set<String> known = new HashSet<>();
    private final Map<String, Double> priorities = new HashMap<>();

    public SchedulerState(SchedulingPolicy policy, String policyVersion, double defaultPriority) {
        this.policy = policy;
        this.policyVersion = policyVersion;
        this.defaultPriority = defaultPriority;
    }

    /** Queues a tuned job; false when the job id was seen before (the event changes nothing). */
    public boolean enqueue(JobTuned job) {
        if (!known.add(job.jobId())) {
            return false;
        }
        pending.put(job.jobId(), new PendingJob(job));
        return true;
    }

    public void updateNode(NodeMetrics m) {
        if (m.stale()) {
            return; // stale numbers say nothing new about capacity; keep what we know
        }
        cluster.upsertNode(new NodeSpec(m.node(),
                new Resources(m.capacity().gpuMilli(), m.capacity().cpuMilli(), m.capacity().memoryMib())));
        if (m.schedulable()) {
            unschedulableNodes.remove(m.node());
        } else {
            unschedulableNodes.add(m.node());
        }
    }

    public void updatePriority(UserPriority p) {
        priorities.put(p.user(), p.priority());
    }

    /** Applies a lifecycle event: finished, failed and preempted jobs give their resources back. */
    public void onLifecycle(LifecycleEvent e) {
        switch (e.type()) {
            case "JobCompleted", "JobFailed" -> release(e.jobId());
            case "JobPreempted" -> {
                Running r = release(e.jobId());
                if (r != null) {
                    pending.put(r.job().jobId(), new PendingJob(r.job()));
                }
            }
            case "JobRejected" -> pending.remove(e.jobId());
            default -> {
                // started and progress: the reservation was made with the decision
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
        List<JobRequest> requests = new ArrayList<>(pending.size());
        for (PendingJob p : pending.values()) {
            requests.add(p.toRequest(priorities.getOrDefault(p.job().user(), defaultPriority)));
        }
        double nowS = now.getEpochSecond() + now.getNano() / 1e9;
        List<Placement> placements = policy.schedule(new SchedulingContext(nowS, requests, schedulable));
        List<SchedulingDecision> decisions = new ArrayList<>(placements.size());
        for (Placement placement : placements) {
            PendingJob p = pending.remove(placement.jobId());
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

    /** Jobs bigger than every node (per task) or than the whole cluster (the gang) will never run. */
    private List<JobRejected> rejectUnfit(Instant now) {
        List<JobRejected> out = new ArrayList<>();
        Resources total = cluster.totalCapacity();
        var it = pending.values().iterator();
        while (it.hasNext()) {
            PendingJob p = it.next();
            Resources perTask = p.perTask();
            String reason = null;
            if (cluster.nodes().stream().noneMatch(n -> n.capacity().covers(perTask))) {
                reason = "each task requests " + describe(perTask) + "; no node has that much capacity";
            } else if (!total.covers(perTask.times(p.job().tasks()))) {
                reason = "the gang of " + p.job().tasks() + " tasks needs more than the whole cluster";
            }
            if (reason != null) {
                it.remove();
                JobTuned j = p.job();
                out.add(new JobRejected(Events.newId(), GantryEvent.SCHEMA_VERSION, now, j.jobId(), j.user(),
                        "sac-scheduler", "perTask", reason));
            }
        }
        return out;
    }

    /** The cluster as the policy may use it: cordoned (unschedulable) nodes are left out. */
    private ClusterState schedulableView() {
        if (unschedulableNodes.isEmpty()) {
            return cluster;
        }
        ClusterState view = new ClusterState(List.of());
        for (NodeState n : cluster.nodes()) {
            if (!unschedulableNodes.contains(n.name())) {
                view.upsertNode(new NodeSpec(n.name(), n.capacity()));
                if (!n.allocated().equals(Resources.ZERO)) {
                    view.allocate(n.name(), n.allocated());
                }
            }
        }
        return view;
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
