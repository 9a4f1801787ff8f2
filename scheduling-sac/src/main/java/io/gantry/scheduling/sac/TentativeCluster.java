package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The free resources of every node during one SAC round, charged as the agent places jobs one after
 * another so each decision sees the previous ones, and released when it stops a running job to make room.
 * The real cluster is never touched. Arrays, since this is read for every candidate of every decision.
 *
 * <p>Besides the nodes it holds what a round knows about jobs: the running jobs that may be stopped (with
 * their prior urgency, {@link Features#priorUrgencyGpuS}), the service pending jobs received before they
 * were preempted, and whether stopping is allowed at all (a running job is offered as a victim only when its
 * {@code preemptible} flag is set).
 */
final class TentativeCluster {

    /** A running job that could be stopped: where its tasks are and how urgent it is now. */
    record Victim(String id, Resources perTask, int[] nodes, double gpus, double urgencyGpuS) {
    }

    final String[] names;
    final long[] capGpu;
    final long[] capCpu;
    final long[] capMem;
    final long[] freeGpu;
    final long[] freeCpu;
    final long[] freeMem;
    final int[] running;
    /** Running jobs, least urgent first; ones stopped this round are dropped. */
    private final List<Victim> victims;
    private final Map<String, Double> pendingAttainedGpuS;
    private final boolean mayPreempt;
    /** Seconds a stopped job needs again when it resumes: a victim must be less urgent by at least that, per GPU. */
    private final double restartCostS;

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
        List<NodeState> nodes = cluster.nodes();
        int n = nodes.size();
        names = new String[n];
        capGpu = new long[n];
        capCpu = new long[n];
        capMem = new long[n];
        freeGpu = new long[n];
        freeCpu = new long[n];
        freeMem = new long[n];
        running = new int[n];
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            NodeState s = nodes.get(i);
            Resources cap = s.capacity();
            Resources free = s.free();
            names[i] = s.name();
            index.put(s.name(), i);
            capGpu[i] = cap.gpuMilli();
            capCpu[i] = cap.cpuMilli();
            capMem[i] = cap.memoryMib();
            freeGpu[i] = free.gpuMilli();
            freeCpu[i] = free.cpuMilli();
            freeMem[i] = free.memoryMib();
            running[i] = s.runningTasks();
        }
        this.pendingAttainedGpuS = pendingAttained;
        this.mayPreempt = mayPreempt;
        this.restartCostS = restartCostS;
        List<Victim> v = new ArrayList<>();
        if (mayPreempt) {
            for (RunningJob r : runningJobs) {
                int[] on = new int[r.nodes().size()];
                boolean known = true;
                for (int k = 0; k < on.length; k++) {
                    Integer i = index.get(r.nodes().get(k));
                    known &= i != null;
                    on[k] = i == null ? -1 : i;
                }
                // A job on a node the scheduler no longer sees (cordoned), or submitted as not preemptible, is not
                // ours to stop.
                if (known && r.preemptible()) {
                    v.add(new Victim(r.job().id(), r.job().perTask(), on, r.job().gpus(),
                            Features.priorUrgencyGpuS(r.job(), r.attainedGpuSecondsAt(now))));
                }
            }
            v.sort((a, b) -> a.urgencyGpuS() != b.urgencyGpuS() ? Double.compare(b.urgencyGpuS(), a.urgencyGpuS())
                    : a.id().compareTo(b.id()));
        }
        this.victims = v;
    }

    private TentativeCluster(TentativeCluster o) {
        names = o.names;
        capGpu = o.capGpu;
        capCpu = o.capCpu;
        capMem = o.capMem;
        freeGpu = o.freeGpu.clone();
        freeCpu = o.freeCpu.clone();
        freeMem = o.freeMem.clone();
        running = o.running.clone();
        victims = new ArrayList<>(o.victims);
        pendingAttainedGpuS = o.pendingAttainedGpuS;
        mayPreempt = o.mayPreempt;
        restartCostS = o.restartCostS;
    }

    int size() {
        return names.length;
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
        return Math.min(per(freeGpu[i], t.gpuMilli()), Math.min(per(freeCpu[i], t.cpuMilli()), per(freeMem[i], t.memoryMib())));
    }

    private static long per(long free, long need) {
        return need == 0 ? Integer.MAX_VALUE : free / need;
    }

    /** True when node i can hold at least one task and the whole gang fits somewhere, so anchoring the job on i can succeed. */
    boolean canAnchor(JobRequest job, int i, long clusterSlots) {
        return slots(i, job.perTask()) >= 1 && clusterSlots >= job.tasks();
    }

    long clusterSlots(Resources t) {
        long s = 0;
        for (int i = 0; i < names.length; i++) {
            s += slots(i, t);
        }
        return s;
    }

    int totalRunningTasks() {
        int r = 0;
        for (int x : running) {
            r += x;
        }
        return r;
    }

    /**
     * The running jobs to stop so that {@code job} (of prior urgency {@code urgencyGpuS}) can start: strictly
     * less urgent ones only, least urgent first, one at a time until the gang fits, as the preemptive baselines
     * do. With a restart cost a victim must be less urgent by more than the GPU-seconds it would lose
     * ({@code restartCostS} × its GPUs): stopping it for less would cost more service than it saves (SRPT with a
     * switching cost). Empty when it already fits; null when stopping every such job would not make room.
     */
    List<Victim> victimsFor(JobRequest job, double urgencyGpuS) {
        Resources t = job.perTask();
        if (clusterSlots(t) >= job.tasks()) {
            return List.of();
        }
        if (!mayPreempt) {
            return null;
        }
        double freeable = 0;
        for (int i = 0; i < names.length; i++) {
            freeable += freeGpu[i];
        }
        for (Victim v : victims) {
            if (worthStopping(v, urgencyGpuS)) {
                freeable += v.gpus() * 1000;
            }
        }
        if (freeable < job.total().gpuMilli()) {
            return null;
        }
        TentativeCluster trial = new TentativeCluster(this);
        List<Victim> chosen = new ArrayList<>();
        for (Victim v : victims) {
            if (v.urgencyGpuS() <= urgencyGpuS) {
                break; // least urgent first: none after this one is less urgent than the job
            }
            if (!worthStopping(v, urgencyGpuS)) {
                continue;
            }
            trial.release(v);
            chosen.add(v);
            if (trial.clusterSlots(t) >= job.tasks()) {
                return chosen;
            }
        }
        return null;
    }

    private boolean worthStopping(Victim v, double urgencyGpuS) {
        return v.urgencyGpuS() > urgencyGpuS + restartCostS * v.gpus();
    }

    /** A copy with {@code stop} released: what the cluster would look like after those preemptions. */
    TentativeCluster without(List<Victim> stop) {
        TentativeCluster c = new TentativeCluster(this);
        stop.forEach(c::release);
        return c;
    }

    /** Releases a running job's resources for the rest of the round; it is no longer a victim. */
    void release(Victim v) {
        for (int i : v.nodes()) {
            freeGpu[i] += v.perTask().gpuMilli();
            freeCpu[i] += v.perTask().cpuMilli();
            freeMem[i] += v.perTask().memoryMib();
            running[i]--;
        }
        victims.remove(v);
    }

    /** The feasible anchor that leaves the least free after placing one task (kube-scheduler's MostAllocated), or −1. */
    int mostAllocatedAnchor(JobRequest job) {
        long slots = clusterSlots(job.perTask());
        int best = -1;
        double bestFree = Double.POSITIVE_INFINITY;
        for (int i = 0; i < names.length; i++) {
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
     * Places the gang with as many tasks as fit on the anchor node (locality for gangs), the rest one by one
     * on the node left emptiest (kube-scheduler's LeastAllocated), charging the free pool. Returns the node of
     * each task, or null (and changes nothing) when the gang does not fit.
     */
    List<String> place(JobRequest job, int anchor) {
        Resources t = job.perTask();
        if (!canAnchor(job, anchor, clusterSlots(t))) {
            return null;
        }
        List<String> out = new ArrayList<>(job.tasks());
        while (out.size() < job.tasks() && slots(anchor, t) >= 1) {
            charge(anchor, t);
            out.add(names[anchor]);
        }
        while (out.size() < job.tasks()) {
            int best = -1;
            double bestFree = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < names.length; i++) {
                if (slots(i, t) >= 1) {
                    double free = meanFreeRatioAfter(i, t, 1);
                    if (free > bestFree) {
                        bestFree = free;
                        best = i;
                    }
                }
            }
            // clusterSlots >= tasks guarantees a node for every task.
            charge(best, t);
            out.add(names[best]);
        }
        return out;
    }

    /** Mean over GPU, CPU and memory of what node i would have free after {@code tasks} more tasks of size t, ÷ capacity. */
    double meanFreeRatioAfter(int i, Resources t, long tasks) {
        return (ratio(freeGpu[i] - tasks * t.gpuMilli(), capGpu[i]) + ratio(freeCpu[i] - tasks * t.cpuMilli(), capCpu[i])
                + ratio(freeMem[i] - tasks * t.memoryMib(), capMem[i])) / 3.0;
    }

    static double ratio(long part, long whole) {
        return whole <= 0 ? 0 : (double) part / whole;
    }

    private void charge(int i, Resources t) {
        freeGpu[i] -= t.gpuMilli();
        freeCpu[i] -= t.cpuMilli();
        freeMem[i] -= t.memoryMib();
        running[i]++;
    }
}
