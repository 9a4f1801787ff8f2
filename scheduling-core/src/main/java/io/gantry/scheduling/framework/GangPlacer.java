package io.gantry.scheduling.framework;

import io.gantry.scheduling.framework.NodeFilter.NodeView;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The filter–score–bind stage of one scheduling round. It holds a tentative copy of every node's free
 * resources, so successive placements in the same round see each other; the cluster itself is never
 * touched. Gangs are placed whole or not at all. Arrays rather than maps: this runs for every
 * pending job of every round of a replay.
 */
public final class GangPlacer {

    private final String[] names;
    // Built on first use: only preemption planning looks nodes up by name, and building it for every
    // round was the largest cost of a replay on a 1,000-node cluster.
    private Map<String, Integer> indexByName;
    private final Resources[] capacity;
    private final long[] freeGpu;
    private final long[] freeCpu;
    private final long[] freeMem;
    private final int[] running;
    private final List<NodeFilter> filters;
    private final NodeScorer scorer;
    // Component-wise maximum of free resources over nodes: a task that exceeds it fits nowhere, which
    // lets a long queue be skipped in O(1) per job when the cluster is full.
    private long maxFreeGpu;
    private long maxFreeCpu;
    private long maxFreeMem;

    public GangPlacer(List<NodeState> nodes, List<NodeFilter> filters, NodeScorer scorer) {
        int n = nodes.size();
        names = new String[n];
        capacity = new Resources[n];
        freeGpu = new long[n];
        freeCpu = new long[n];
        freeMem = new long[n];
        running = new int[n];
        for (int i = 0; i < n; i++) {
            NodeState s = nodes.get(i);
            Resources free = s.free();
            names[i] = s.name();
            capacity[i] = s.capacity();
            freeGpu[i] = free.gpuMilli();
            freeCpu[i] = free.cpuMilli();
            freeMem[i] = free.memoryMib();
            running[i] = s.runningTasks();
        }
        this.filters = List.copyOf(filters);
        this.scorer = scorer;
        recomputeMaxFree();
    }

    private GangPlacer(GangPlacer o) {
        names = o.names;
        indexByName = o.indexByName;
        capacity = o.capacity;
        freeGpu = o.freeGpu.clone();
        freeCpu = o.freeCpu.clone();
        freeMem = o.freeMem.clone();
        running = o.running.clone();
        filters = o.filters;
        scorer = o.scorer;
        maxFreeGpu = o.maxFreeGpu;
        maxFreeCpu = o.maxFreeCpu;
        maxFreeMem = o.maxFreeMem;
    }

    /** An independent copy for trying a plan (such as a preemption) that may be abandoned. */
    public GangPlacer copy() {
        return new GangPlacer(this);
    }

    /** Takes over the tentative state of a copy whose plan was accepted. */
    public void adopt(GangPlacer trial) {
        System.arraycopy(trial.freeGpu, 0, freeGpu, 0, freeGpu.length);
        System.arraycopy(trial.freeCpu, 0, freeCpu, 0, freeCpu.length);
        System.arraycopy(trial.freeMem, 0, freeMem, 0, freeMem.length);
        System.arraycopy(trial.running, 0, running, 0, running.length);
        maxFreeGpu = trial.maxFreeGpu;
        maxFreeCpu = trial.maxFreeCpu;
        maxFreeMem = trial.maxFreeMem;
    }

    /** Returns the resources of a stopped job to the tentative free pool (for preemption planning). */
    public void release(List<String> nodesOfJob, Resources perTask) {
        for (String node : nodesOfJob) {
            int i = indexOf(node);
            freeGpu[i] += perTask.gpuMilli();
            freeCpu[i] += perTask.cpuMilli();
            freeMem[i] += perTask.memoryMib();
            running[i]--;
        }
        recomputeMaxFree();
    }

    /** True when one task of the job fits on at least one node as things stand (filters aside). */
    public boolean mightFit(JobRequest job) {
        return mightFit(job.perTask());
    }

    /** True when a task of this size could fit somewhere; false proves it fits nowhere. */
    public boolean mightFit(Resources t) {
        return t.gpuMilli() <= maxFreeGpu && t.cpuMilli() <= maxFreeCpu && t.memoryMib() <= maxFreeMem;
    }

    /** Component-wise smallest per-task request: if even this fits nowhere, no job of the list can start. */
    public static Resources smallestRequest(List<JobRequest> jobs) {
        long g = Long.MAX_VALUE;
        long c = Long.MAX_VALUE;
        long m = Long.MAX_VALUE;
        for (JobRequest j : jobs) {
            Resources t = j.perTask();
            g = Math.min(g, t.gpuMilli());
            c = Math.min(c, t.cpuMilli());
            m = Math.min(m, t.memoryMib());
        }
        return jobs.isEmpty() ? Resources.ZERO : new Resources(g, c, m);
    }

    /** Places every task of the job or none; on success charges the tentative free pool and returns the nodes. */
    public List<String> place(JobRequest job) {
        if (!mightFit(job)) {
            return null;
        }
        Resources t = job.perTask();
        int tasks = job.tasks();
        if (tasks > 1 && slotsFor(t) < tasks) {
            return null;
        }
        int[] chosen = new int[tasks];
        for (int k = 0; k < tasks; k++) {
            int best = -1;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < names.length; i++) {
                if (freeGpu[i] < t.gpuMilli() || freeCpu[i] < t.cpuMilli() || freeMem[i] < t.memoryMib()) {
                    continue;
                }
                NodeView view = view(i);
                if (!passesFilters(job, view)) {
                    continue;
                }
                double s = scorer.score(job, view);
                if (s > bestScore) {
                    bestScore = s;
                    best = i;
                }
            }
            if (best < 0) {
                // Undo the tasks already charged for this gang: all-or-nothing.
                for (int u = 0; u < k; u++) {
                    credit(chosen[u], t);
                }
                return null;
            }
            charge(best, t);
            chosen[k] = best;
        }
        recomputeMaxFree();
        List<String> out = new ArrayList<>(tasks);
        for (int i : chosen) {
            out.add(names[i]);
        }
        return out;
    }

    private NodeView view(int i) {
        return new NodeView(names[i], capacity[i], new Resources(freeGpu[i], freeCpu[i], freeMem[i]), running[i]);
    }

    private boolean passesFilters(JobRequest job, NodeView view) {
        for (NodeFilter f : filters) {
            if (!f.admits(job, view)) {
                return false;
            }
        }
        return true;
    }

    /** How many tasks of this size fit in the free pool, counting every node. */
    private long slotsFor(Resources t) {
        long slots = 0;
        for (int i = 0; i < names.length; i++) {
            slots += Math.min(per(freeGpu[i], t.gpuMilli()), Math.min(per(freeCpu[i], t.cpuMilli()), per(freeMem[i], t.memoryMib())));
        }
        return slots;
    }

    private static long per(long free, long need) {
        return need == 0 ? Long.MAX_VALUE / 4 : free / need;
    }

    private void charge(int i, Resources t) {
        freeGpu[i] -= t.gpuMilli();
        freeCpu[i] -= t.cpuMilli();
        freeMem[i] -= t.memoryMib();
        running[i]++;
    }

    private void credit(int i, Resources t) {
        freeGpu[i] += t.gpuMilli();
        freeCpu[i] += t.cpuMilli();
        freeMem[i] += t.memoryMib();
        running[i]--;
    }

    private int indexOf(String node) {
        if (indexByName == null) {
            indexByName = new HashMap<>(names.length * 2);
            for (int k = 0; k < names.length; k++) {
                indexByName.put(names[k], k);
            }
        }
        Integer i = indexByName.get(node);
        if (i != null) {
            return i;
        }
        throw new IllegalArgumentException("unknown node " + node);
    }

    private void recomputeMaxFree() {
        maxFreeGpu = Arrays.stream(freeGpu).max().orElse(0);
        maxFreeCpu = Arrays.stream(freeCpu).max().orElse(0);
        maxFreeMem = Arrays.stream(freeMem).max().orElse(0);
    }
}
