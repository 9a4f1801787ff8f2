package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.VictimChooser;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One SAC round's view of the cluster: the core's {@link GangPlacer} charged as the agent places jobs one after
 * another, so each decision sees the previous ones, and released when the core's {@link VictimChooser} stops a
 * running job to make room. The real cluster is never touched.
 *
 * <p>Besides the nodes it holds what a round knows about jobs: the running jobs that may be stopped (with
 * their prior urgency, {@link Features#priorUrgencyGpuS}), the service pending jobs received before they
 * were preempted, and whether stopping is allowed at all (a running job is offered as a victim only when its
 * {@code preemptible} flag is set).
 */
final class TentativeCluster {

    /**
     * Where SAC places the rest of a gang after its anchor: the node left emptiest (kube-scheduler's LeastAllocated),
     * as the mean over GPU, CPU and memory with a missing dimension counted as 0 (what the policy was trained with).
     */
    static final NodeScorer LEAST_ALLOCATED = (job, node) ->
            meanFreeRatioAfter(node.capacity(), node.free(), job.perTask(), 1);

    private final GangPlacer nodes;
    /** Running jobs, least urgent first; ones stopped this round are dropped. */
    private final List<VictimChooser.Candidate> victims;
    private final Map<String, Double> pendingAttainedGpuS;
    private final boolean mayPreempt;
    private final VictimChooser chooser;

    /** A cluster as it stands, with no running jobs known and so nothing to stop. */
    TentativeCluster(ClusterState cluster) {
        this(cluster, List.of(), Map.of(), 0, false, 0);
    }

    /**
     * The round's view of a scheduling context; {@code mayPreempt} whether the caller can stop running jobs,
     * {@code restartCostS} what stopping one costs it in run time when it resumes.
     */
    TentativeCluster(SchedulingContext ctx, boolean mayPreempt, double restartCostS) {
        this(ctx.cluster(), ctx.running(), ctx.pendingAttainedGpuS(), ctx.now(), mayPreempt, restartCostS);
    }

    private TentativeCluster(ClusterState cluster, List<RunningJob> runningJobs, Map<String, Double> pendingAttained,
                             double now, boolean mayPreempt, double restartCostS) {
        this.nodes = new GangPlacer(cluster.nodes(), List.of(), LEAST_ALLOCATED);
        this.pendingAttainedGpuS = pendingAttained;
        this.mayPreempt = mayPreempt;
        this.chooser = new VictimChooser(restartCostS);
        List<VictimChooser.Candidate> v = new ArrayList<>();
        if (mayPreempt) {
            for (RunningJob r : runningJobs) {
                // A job on a node the scheduler no longer sees (cordoned), or submitted as not preemptible, is not
                // ours to stop.
                if (r.preemptible() && r.nodes().stream().allMatch(nodes::hasNode)) {
                    v.add(new VictimChooser.Candidate(r, Features.priorUrgencyGpuS(r.job(), r.attainedGpuSecondsAt(now))));
                }
            }
            v.sort((a, b) -> a.urgency() != b.urgency() ? Double.compare(b.urgency(), a.urgency())
                    : a.id().compareTo(b.id()));
        }
        this.victims = v;
    }

    private TentativeCluster(TentativeCluster o) {
        nodes = o.nodes.copy();
        victims = new ArrayList<>(o.victims);
        pendingAttainedGpuS = o.pendingAttainedGpuS;
        mayPreempt = o.mayPreempt;
        chooser = o.chooser;
    }

    /** The nodes as charged so far (read them, do not place on them: {@link #place} does). */
    GangPlacer nodes() {
        return nodes;
    }

    int size() {
        return nodes.size();
    }

    /** GPU-seconds a pending job received before it was preempted (0 for a job that never ran). */
    double attainedGpuS(JobRequest job) {
        return pendingAttainedGpuS.getOrDefault(job.id(), 0.0);
    }

    boolean mayPreempt() {
        return mayPreempt && !victims.isEmpty();
    }

    /** How many tasks of size {@code t} fit on node i as it stands. */
    long slots(int i, Resources t) {
        return nodes.slots(i, t);
    }

    /** True when node i can hold at least one task and the whole gang fits somewhere, so anchoring the job on i can succeed. */
    boolean canAnchor(JobRequest job, int i, long clusterSlots) {
        return slots(i, job.perTask()) >= 1 && clusterSlots >= job.tasks();
    }

    long clusterSlots(Resources t) {
        return nodes.slotsFor(t);
    }

    int totalRunningTasks() {
        int r = 0;
        for (int i = 0; i < nodes.size(); i++) {
            r += nodes.runningTasks(i);
        }
        return r;
    }

    /**
     * The running jobs to stop so that {@code job} (of prior urgency {@code urgencyGpuS}) can start, as the core's
     * {@link VictimChooser} picks them for every preemptive policy: until the gang fits in the pool (SAC then picks
     * its anchor). Empty when it already fits; null when stopping every eligible job would not make room.
     */
    List<VictimChooser.Candidate> victimsFor(JobRequest job, double urgencyGpuS) {
        Resources t = job.perTask();
        if (clusterSlots(t) >= job.tasks()) {
            return List.of();
        }
        if (!mayPreempt) {
            return null;
        }
        VictimChooser.Plan plan = chooser.choose(nodes, victims, Set.of(), job, urgencyGpuS,
                trial -> trial.slotsFor(t) >= job.tasks());
        return plan == null ? null : plan.victims();
    }

    /** A copy with {@code stop} released: what the cluster would look like after those preemptions. */
    TentativeCluster without(List<VictimChooser.Candidate> stop) {
        TentativeCluster c = new TentativeCluster(this);
        stop.forEach(c::release);
        return c;
    }

    /** Releases a running job's resources for the rest of the round; it is no longer a victim. */
    void release(VictimChooser.Candidate v) {
        nodes.release(v.running().nodes(), v.running().job().perTask());
        victims.remove(v);
    }

    /** The feasible anchor that leaves the least free after placing one task (kube-scheduler's MostAllocated), or −1. */
    int mostAllocatedAnchor(JobRequest job) {
        long slots = clusterSlots(job.perTask());
        int best = -1;
        double bestFree = Double.POSITIVE_INFINITY;
        for (int i = 0; i < nodes.size(); i++) {
            if (canAnchor(job, i, slots)) {
                double free = meanFreeRatioAfter(i, job.perTask(), 1);
                if (free < bestFree) {
                    bestFree = free;
                    best = i;
                }
            }
        }
        return best;
    }

    /**
     * Places the gang with as many tasks as fit on the anchor node (locality for gangs), the rest one by one on the
     * node left emptiest ({@link #LEAST_ALLOCATED}), charging the pool. Returns the node of each task, or null (and
     * changes nothing) when the gang does not fit.
     */
    List<String> place(JobRequest job, int anchor) {
        return nodes.placeAnchored(job, anchor);
    }

    /** Mean over GPU, CPU and memory of what node i would have free after {@code tasks} more tasks of size t, ÷ capacity. */
    double meanFreeRatioAfter(int i, Resources t, long tasks) {
        return meanFreeRatioAfter(nodes.capacity(i), nodes.free(i), t, tasks);
    }

    private static double meanFreeRatioAfter(Resources cap, Resources free, Resources t, long tasks) {
        return (ratio(free.gpuMilli() - tasks * t.gpuMilli(), cap.gpuMilli())
                + ratio(free.cpuMilli() - tasks * t.cpuMilli(), cap.cpuMilli())
                + ratio(free.memoryMib() - tasks * t.memoryMib(), cap.memoryMib())) / 3.0;
    }

    static double ratio(long part, long whole) {
        return whole <= 0 ? 0 : (double) part / whole;
    }
}
