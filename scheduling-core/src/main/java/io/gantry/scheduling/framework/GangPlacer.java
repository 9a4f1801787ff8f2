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
        return placeFrom(job, new int[tasks], 0);
    }

    /**
     * Places the gang with as many tasks as fit on node {@code anchor} (locality for gangs), the rest by the scorer,
     * all or nothing; null (and nothing charged) unless the anchor passes the filters, one task fits on it and the
     * whole gang fits in the pool.
     */
    public List<String> placeAnchored(JobRequest job, int anchor) {
        Resources t = job.perTask();
        int tasks = job.tasks();
        if (slots(anchor, t) < 1 || slotsFor(t) < tasks || !passesFilters(job, view(anchor))) {
            return null;
        }
        int[] chosen = new int[tasks];
        int k = 0;
        while (k < tasks && slots(anchor, t) >= 1) {
            charge(anchor, t);
            chosen[k++] = anchor;
        }
        return placeFrom(job, chosen, k);
    }

    /** Places tasks {@code from..} of the gang, each on the best-scored node that passes the filters; all or nothing. */
    private List<String> placeFrom(JobRequest job, int[] chosen, int from) {
        Resources t = job.perTask();
        int tasks = chosen.length;
        for (int k = from; k < tasks; k++) {
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

    /** Nodes, indexed 0..size−1 in the order they were given. */
    public int size() {
        return names.length;
    }

    public String name(int i) {
        return names[i];
    }

    public Resources capacity(int i) {
        return capacity[i];
    }

    /** What node i has free as charged so far. */
    public Resources free(int i) {
        return new Resources(freeGpu[i], freeCpu[i], freeMem[i]);
    }

    /** Tasks on node i, counting the ones placed (and not those released) this round. */
    public int runningTasks(int i) {
        return running[i];
    }

    /** GPU milli free over every node. */
    public long freeGpuTotal() {
        long sum = 0;
        for (long g : freeGpu) {
            sum += g;
        }
        return sum;
    }

    public boolean hasNode(String node) {
        return indexOf(node, false) >= 0;
    }

    private NodeView view(int i) {
        return new NodeView(names[i], capacity[i], free(i), running[i]);
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
    public long slotsFor(Resources t) {
        long slots = 0;
        for (int i = 0; i < names.length; i++) {
            slots += slots(i, t);
        }
        return slots;
    }

    /** How many tasks of this size fit on node i as it stands (filters aside). */
    public long slots(int i, Resources t) {
        return Math.min(per(freeGpu[i], t.gpuMilli()), Math.min(per(freeCpu[i], t.cpuMilli()), per(freeMem[i], t.memoryMib())));
    }

    // Integer.MAX_VALUE for a dimension not asked for: summed over any cluster it cannot overflow a long.
    private static long per(long free, long need) {
        return need == 0 ? Integer.MAX_VALUE : free / need;
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
        return indexOf(node, true);
    }

    private int indexOf(String node, boolean mustExist) {
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
        if (mustExist) {
            throw new IllegalArgumentException("unknown node " + node);
        }
        return -1;
    }

    private void recomputeMaxFree() {
        maxFreeGpu = Arrays.stream(freeGpu).max().orElse(0);
        maxFreeCpu = Arrays.stream(freeCpu).max().orElse(0);
        maxFreeMem = Arrays.stream(freeMem).max().orElse(0);
    }
}
