package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * The free resources of every node during one SAC round, charged as the agent places jobs one after
 * another so each decision sees the previous ones. The real cluster is never touched. Arrays, since
 * this is read for every candidate of every decision.
 */
final class TentativeCluster {

    final String[] names;
    final long[] capGpu;
    final long[] capCpu;
    final long[] capMem;
    final long[] freeGpu;
    final long[] freeCpu;
    final long[] freeMem;
    final int[] running;

    TentativeCluster(ClusterState cluster) {
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
        for (int i = 0; i < n; i++) {
            NodeState s = nodes.get(i);
            Resources cap = s.capacity();
            Resources free = s.free();
            names[i] = s.name();
            capGpu[i] = cap.gpuMilli();
            capCpu[i] = cap.cpuMilli();
            capMem[i] = cap.memoryMib();
            freeGpu[i] = free.gpuMilli();
            freeCpu[i] = free.cpuMilli();
            freeMem[i] = free.memoryMib();
            running[i] = s.runningTasks();
        }
    }

    int size() {
        return names.length;
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
