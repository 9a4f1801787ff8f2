package io.gantry.scheduling.fairness;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps a large gang from starving behind smaller jobs, as Slurm's backfill reservation and YARN's node reservation
 * do: once the highest-priority pending job has waited at least {@code afterS} and fits nowhere, it holds a
 * reservation — the nodes with the most free GPUs that together can hold the whole gang — and the wrapped policy
 * sees the cluster without those nodes until the gang starts there (or anywhere else it fits first). Without this a
 * gang needing whole nodes waits as long as smaller jobs keep arriving, whatever its priority: a greedy policy
 * fills every GPU that frees up before a whole node is ever empty.
 *
 * <p>One reservation at a time, kept until its job starts, so the reserved nodes drain instead of changing every
 * round. The cost is GPUs left idle while they drain.
 */
public final class StarvationReservation implements SchedulingPolicy {

    /** Priority first (what fair share sets), then arrival, then id: the queue order of {@code kube-default}. */
    private static final Comparator<JobRequest> PRIORITY_ORDER = Comparator.comparingDouble(JobRequest::priority)
            .reversed().thenComparingDouble(JobRequest::submitTime).thenComparing(JobRequest::id);

    private final SchedulingPolicy inner;
    private final double afterS;
    private String holderId;

    /** @param afterS how long the highest-priority job must have waited before it may hold a reservation */
    public StarvationReservation(SchedulingPolicy inner, double afterS) {
        if (!(afterS >= 0) || Double.isInfinite(afterS)) {
            throw new IllegalArgumentException("reservation wait must be a finite number of seconds ≥ 0, got " + afterS);
        }
        this.inner = inner;
        this.afterS = afterS;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        Map<String, JobRequest> pending = new HashMap<>();
        ctx.pending().forEach(j -> pending.put(j.id(), j));
        JobRequest holder = holderId == null ? null : pending.get(holderId);
        holderId = holder == null ? null : holderId;
        List<Placement> placements = new ArrayList<>();
        ClusterState free = ctx.cluster().without(Set.of());
        ClusterState view = free;
        List<JobRequest> offered = ctx.pending();
        if (holder != null) {
            offered = new ArrayList<>(ctx.pending());
            offered.remove(holder);
            List<String> nodes = new GangPlacer(free.nodes(), List.of(), NodeScorer.MOST_ALLOCATED).place(holder);
            if (nodes != null) {
                placements.add(new Placement(holder.id(), nodes));
                nodes.forEach(n -> free.allocate(n, holder.perTask()));
                holderId = null;
            } else {
                view = free.without(reservedFor(holder, free));
            }
        }
        Decision d = inner.decide(new SchedulingContext(ctx.now(), offered, view, ctx.running(),
                ctx.pendingAttainedGpuS(), ctx.pendingNotPreemptible()));
        if (!d.preemptions().isEmpty()) {
            // The inner policy planned its preemptions on a view without the reserved nodes and without the holder's
            // placement, so they need not agree with this round's placements (seen: sac placing onto a node the
            // holder had just filled). Refuse (a usage error: a wrong pairing) rather than run an inconsistent schedule.
            throw new IllegalArgumentException("starvation reservations work only with policies that never preempt; "
                    + inner.name() + " preempted at t=" + ctx.now() + " s");
        }
        placements.addAll(d.placements());
        if (holderId == null) {
            holderId = starvingHead(ctx, pending, placements);
        }
        return new Decision(placements, d.preemptions(), d.wakeAt());
    }

    @Override
    public boolean skipsJobsThatDoNotFit() {
        return false; // a reservation holds nodes back, and a round must look at the holder even when nothing freed
    }

    /** The highest-priority job still pending after this round, if it has waited long enough and fits nowhere. */
    private String starvingHead(SchedulingContext ctx, Map<String, JobRequest> pending, List<Placement> placements) {
        ClusterState after = ctx.cluster().without(Set.of());
        Set<String> placed = new java.util.HashSet<>();
        for (Placement p : placements) {
            placed.add(p.jobId());
            JobRequest j = pending.get(p.jobId());
            p.nodes().forEach(n -> after.allocate(n, j.perTask()));
        }
        JobRequest head = null;
        for (JobRequest j : ctx.pending()) {
            if (!placed.contains(j.id()) && (head == null || PRIORITY_ORDER.compare(j, head) < 0)) {
                head = j;
            }
        }
        if (head == null || ctx.now() - head.submitTime() < afterS) {
            return null;
        }
        return new GangPlacer(after.nodes(), List.of(), NodeScorer.MOST_ALLOCATED).place(head) == null ? head.id() : null;
    }

    /** The nodes with the most free GPUs (then fewest running tasks) whose capacity together holds every task. */
    private static Set<String> reservedFor(JobRequest job, ClusterState cluster) {
        List<NodeState> nodes = new ArrayList<>(cluster.nodes());
        nodes.sort(Comparator.comparingLong((NodeState n) -> n.free().gpuMilli()).reversed()
                .thenComparingInt(NodeState::runningTasks).thenComparing(NodeState::name));
        Set<String> out = new LinkedHashSet<>();
        long slots = 0;
        Resources t = job.perTask();
        for (NodeState n : nodes) {
            if (slots >= job.tasks()) {
                break;
            }
            Resources c = n.capacity();
            long s = Math.min(per(c.gpuMilli(), t.gpuMilli()), Math.min(per(c.cpuMilli(), t.cpuMilli()),
                    per(c.memoryMib(), t.memoryMib())));
            if (s > 0) {
                out.add(n.name());
                slots += s;
            }
        }
        return out;
    }

    private static long per(long capacity, long need) {
        return need == 0 ? Long.MAX_VALUE / 4 : capacity / need;
    }
}
