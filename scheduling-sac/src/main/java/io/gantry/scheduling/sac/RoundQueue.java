package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pending jobs of one round, in arrival order and by the prior's urgency ({@link Features#priorUrgencyGpuS}), each
 * order computed once: a job's urgency cannot change within a round (its attained service is what it had when the
 * round began), so a decision walks these orders instead of re-sorting the queue, and a placed job just leaves
 * them. With thousands of jobs waiting, re-sorting for every decision made a round quadratic in the queue.
 */
final class RoundQueue {

    private final List<JobRequest> byArrival;
    private final double[] urgency;
    /** Arrival indices, most urgent first; ties by arrival, as the preemptive baselines break them. */
    private final int[] byUrgency;
    private final boolean[] taken;
    /** Each job's position in {@link #byUrgency} (0 most urgent), by arrival index. */
    private final int[] urgencyPosition;
    private final Map<String, Integer> indexOf;
    private final Map<String, Integer> waitingByUser = new HashMap<>();
    private int left;
    private int takes;
    private long queuedGpuMilli;

    RoundQueue(List<JobRequest> pending, TentativeCluster cluster) {
        byArrival = List.copyOf(pending);
        int n = byArrival.size();
        urgency = new double[n];
        indexOf = new HashMap<>(n * 2);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            JobRequest j = byArrival.get(i);
            urgency[i] = Features.priorUrgencyGpuS(j, cluster.attainedGpuS(j));
            order[i] = i;
            indexOf.putIfAbsent(j.id(), i); // a job is queued once; were it not, the first copy is the one taken
            queuedGpuMilli += j.total().gpuMilli();
            waitingByUser.merge(j.user(), 1, Integer::sum);
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> urgency[i]).thenComparingInt(i -> i));
        byUrgency = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
        urgencyPosition = new int[n];
        for (int k = 0; k < n; k++) {
            urgencyPosition[byUrgency[k]] = k;
        }
        taken = new boolean[n];
        left = n;
    }

    /** Jobs in the queue when the round began, taken ones included: the bound of the index arguments. */
    int size() {
        return byArrival.size();
    }

    boolean isEmpty() {
        return left == 0;
    }

    /** The job that arrived {@code i}-th. */
    JobRequest job(int i) {
        return byArrival.get(i);
    }

    double urgency(int i) {
        return urgency[i];
    }

    /** The arrival index of the {@code k}-th most urgent job. */
    int byUrgency(int k) {
        return byUrgency[k];
    }

    /**
     * Where job {@code i} stood in the whole queue by urgency when the round began: 0 the most urgent, 1 the least
     * (0 when it was alone).
     */
    double urgencyRank(int i) {
        return byUrgency.length > 1 ? urgencyPosition[i] / (double) (byUrgency.length - 1) : 0;
    }

    /** The arrival index of a job of this round, or -1. */
    int indexOf(String jobId) {
        return indexOf.getOrDefault(jobId, -1);
    }

    /** Jobs of {@code user} still waiting. */
    int waitingOf(String user) {
        return waitingByUser.getOrDefault(user, 0);
    }

    /** True once job {@code i} has been placed in this round. */
    boolean taken(int i) {
        return taken[i];
    }

    /** GPU requests (milli-GPUs) of the jobs still waiting. */
    long queuedGpuMilli() {
        return queuedGpuMilli;
    }

    /** Number of jobs still waiting. */
    int waiting() {
        return left;
    }

    /** Removes {@code jobId}, placed by this round's decision, and returns it. */
    JobRequest take(String jobId) {
        Integer i = indexOf.get(jobId);
        if (i == null || taken[i]) {
            throw new IllegalStateException("job " + jobId + " is not waiting in this round");
        }
        taken[i] = true;
        left--;
        takes++;
        JobRequest j = byArrival.get(i);
        queuedGpuMilli -= j.total().gpuMilli();
        waitingByUser.merge(j.user(), -1, Integer::sum);
        return j;
    }

    /**
     * The jobs still waiting, in arrival order: a view that copies them only when its elements are read (a
     * decision's listener mostly needs none, and copying thousands per decision was a tenth of a round). Read it
     * before the next {@link #take}; after one it throws {@link ConcurrentModificationException}.
     */
    List<JobRequest> waitingJobs() {
        int takesThen = takes;
        int sizeThen = left;
        return new AbstractList<>() {
            private List<JobRequest> copy;

            @Override
            public JobRequest get(int index) {
                if (copy == null) {
                    if (takes != takesThen) {
                        throw new ConcurrentModificationException("the round has placed a job since this view was made");
                    }
                    copy = new ArrayList<>(sizeThen);
                    for (int i = 0; i < byArrival.size(); i++) {
                        if (!taken[i]) {
                            copy.add(byArrival.get(i));
                        }
                    }
                }
                return copy.get(index);
            }

            @Override
            public int size() {
                return sizeThen;
            }
        };
    }
}
