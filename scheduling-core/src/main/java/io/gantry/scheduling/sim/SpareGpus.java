package io.gantry.scheduling.sim;

import io.gantry.scheduling.model.JobRequest;
import java.util.Arrays;

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

    private final boolean jobsWaiting;
    private final int[] freePerNode;

    /** @param freePerNode whole free GPUs of each node */
    public SpareGpus(boolean jobsWaiting, int[] freePerNode) {
        this.jobsWaiting = jobsWaiting;
        this.freePerNode = freePerNode.clone();
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
