package io.gantry.scheduling.sim;

import io.gantry.scheduling.model.JobRequest;
import java.util.Arrays;
import java.util.List;

/**
 * What a re-tune knows about the cluster's idle GPUs: whether any job waits in the queue (grow requests of running
 * jobs do not count: they are not jobs), and how many GPUs each node has free. A re-tune walks the running adaptive
 * jobs one after another; each grow it asks for is {@link #take taken} from here, so that two jobs do not count on
 * the same free GPU in one re-tune. Only the GPU dimension is counted: a grow request asks for a GPU's share of a
 * node's CPUs and memory per GPU, so its other resources fit wherever its GPUs do.
 */
public final class SpareGpus {

    /** No idle GPUs and nobody waiting: what a job that restarts anyway is sized with. */
    public static final SpareGpus NONE = new SpareGpus(false, new int[0]);

    /** A running job (by its index in a re-tune's list) that may give idle GPUs back, down to {@code floorGpus}. */
    public record GiveBack(int job, int floorGpus) {
    }

    private final boolean jobsWaiting;
    private final int unmetGpus;
    private final int[] freePerNode;

    /** @param freePerNode whole free GPUs of each node */
    public SpareGpus(boolean jobsWaiting, int[] freePerNode) {
        this(jobsWaiting, 0, freePerNode);
    }

    /**
     * @param unmetGpus   GPUs the waiting jobs ask for that the free GPUs do not hold (each waiting gang fitted in
     *                    queue order, nodes filled in order; those that do not fit count whole)
     * @param freePerNode whole free GPUs of each node
     */
    public SpareGpus(boolean jobsWaiting, int unmetGpus, int[] freePerNode) {
        this.jobsWaiting = jobsWaiting;
        this.unmetGpus = unmetGpus;
        this.freePerNode = freePerNode.clone();
    }

    /** The free GPUs of each node, with {@code waiting} gangs (in queue order) given what they fit into. */
    public static SpareGpus withWaiting(List<JobRequest> waiting, int[] freePerNode) {
        SpareGpus left = new SpareGpus(false, freePerNode);
        int unmet = 0;
        for (JobRequest j : waiting) {
            if (!left.take(j)) {
                unmet += (int) Math.round(j.gpus());
            }
        }
        return new SpareGpus(!waiting.isEmpty(), unmet, left.freePerNode);
    }

    /** GPUs the waiting jobs need that are not free: what running jobs must give back for them to start. */
    public int unmetGpus() {
        return unmetGpus;
    }

    /** True when a job (not a grow request) waits in the queue. */
    public boolean jobsWaiting() {
        return jobsWaiting;
    }

    /** Free GPUs in the whole cluster, as far as this re-tune has not given them out. */
    public int free() {
        return Arrays.stream(freePerNode).sum();
    }

    /** True when every task of {@code gang} finds a node with its GPUs free (nodes filled in order). */
    public boolean fits(JobRequest gang) {
        return place(gang, freePerNode.clone());
    }

    /** Counts {@code gang}'s GPUs as given out; false (and nothing taken) when it does not fit. */
    public boolean take(JobRequest gang) {
        int[] left = freePerNode.clone();
        if (!place(gang, left)) {
            return false;
        }
        System.arraycopy(left, 0, freePerNode, 0, left.length);
        return true;
    }

    private static boolean place(JobRequest gang, int[] free) {
        int perTask = (int) Math.round(gang.perTask().gpus());
        if (perTask < 1) {
            return false;
        }
        int tasks = gang.tasks();
        for (int n = 0; n < free.length && tasks > 0; n++) {
            while (free[n] >= perTask && tasks > 0) {
                free[n] -= perTask;
                tasks--;
            }
        }
        return tasks == 0;
    }
}
