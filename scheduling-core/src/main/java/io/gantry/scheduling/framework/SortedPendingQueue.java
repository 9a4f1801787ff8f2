package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The pending queue kept in a policy's fixed order between rounds, with the component-wise smallest
 * per-task request maintained alongside, so a round can walk jobs in order from the front and stop as
 * soon as nothing fits without ever touching the rest of the queue. Adds and removes are O(log queue).
 * The simulator and the live scheduler both keep their queue in one.
 */
public final class SortedPendingQueue {

    private final Comparator<JobRequest> order;
    private final TreeSet<JobRequest> jobs;
    // Multisets of each request component: the minimum must survive removing one of several equal jobs.
    private final TreeMap<Long, Integer> gpu = new TreeMap<>();
    private final TreeMap<Long, Integer> cpu = new TreeMap<>();
    private final TreeMap<Long, Integer> mem = new TreeMap<>();

    public SortedPendingQueue(Comparator<JobRequest> order) {
        // Ids are unique among pending jobs; the tie-break keeps a non-total order from merging two jobs.
        this.order = order.thenComparing(JobRequest::id);
        this.jobs = new TreeSet<>(this.order);
    }

    /** The order of the queue, tie-break included, for sorting jobs offered outside it. */
    public Comparator<JobRequest> order() {
        return order;
    }

    public int size() {
        return jobs.size();
    }

    public void add(JobRequest job) {
        if (!jobs.add(job)) {
            throw new IllegalStateException("job " + job.id() + " is already pending");
        }
        Resources t = job.perTask();
        gpu.merge(t.gpuMilli(), 1, Integer::sum);
        cpu.merge(t.cpuMilli(), 1, Integer::sum);
        mem.merge(t.memoryMib(), 1, Integer::sum);
    }

    public void remove(JobRequest job) {
        if (!jobs.remove(job)) {
            throw new IllegalStateException("job " + job.id() + " is not pending");
        }
        Resources t = job.perTask();
        decrement(gpu, t.gpuMilli());
        decrement(cpu, t.cpuMilli());
        decrement(mem, t.memoryMib());
    }

    public boolean isEmpty() {
        return jobs.isEmpty();
    }

    public Iterator<JobRequest> inOrder() {
        return jobs.iterator();
    }

    /** Same value as {@code GangPlacer.smallestRequest} over every pending job. */
    public Resources smallestRequest() {
        return jobs.isEmpty() ? Resources.ZERO : new Resources(gpu.firstKey(), cpu.firstKey(), mem.firstKey());
    }

    private static void decrement(Map<Long, Integer> counts, long key) {
        counts.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }
}
