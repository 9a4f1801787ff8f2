package io.gantry.scheduling.gpushare;

/**
 * FGD's fragmentation measure (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with
 * Fragmentation Gradient Descent", USENIX ATC 2023, §3.2; the study's simulator {@code pkg/utils/frag.go},
 * {@code NodeGpuShareFragAmount} summed without its Q3 part): the GPU-milli of a node that a pod drawn from the target
 * workload could not use, in expectation,
 * <pre>  F_n(M) = Σ_m p_m · F_n(m)</pre>
 * where, for a shape m of popularity p_m:
 * <ul>
 *   <li>m asks for no GPU: every free GPU-milli of the node is a fragment (that pod can never use them);</li>
 *   <li>the node's model is not in m's {@code gpu_spec}, the node lacks the CPU, or fewer than {@code m.gpus} devices
 *       each have {@code m.gpuMilli} free: every free GPU-milli is a fragment;</li>
 *   <li>otherwise only the devices with less than {@code m.gpuMilli} free are fragments.</li>
 * </ul>
 * Memory plays no part, as in the paper.
 */
public final class Fragmentation {

    private Fragmentation() {
    }

    /** F_n(M) of a node with {@code cpuFree} millicores and devices {@code gpuFree}, of GPU {@code model}. */
    public static double ofNode(int cpuFree, int[] gpuFree, String model, TargetWorkload w) {
        int total = 0;
        for (int g : gpuFree) {
            total += g;
        }
        if (total == 0) {
            return 0;
        }
        boolean[] accepts = w.accepts(model);
        double frag = 0;
        for (int m = 0; m < w.popularity.length; m++) {
            frag += w.popularity[m] * unusable(cpuFree, gpuFree, total, w.cpu[m], w.gpus[m], w.milli[m], accepts[m]);
        }
        return frag;
    }

    /** F_n(m): the free GPU-milli of the node that a pod of this shape could not use. */
    static int unusable(int cpuFree, int[] gpuFree, int total, int cpu, int gpus, int milli, boolean accepts) {
        if (gpus == 0 || !accepts || cpuFree < cpu) {
            return total;
        }
        int room = 0;
        int stranded = 0;
        for (int g : gpuFree) {
            if (g >= milli) {
                room++;
            } else {
                stranded += g;
            }
        }
        return room >= gpus ? stranded : total;
    }

    /** The cluster's fragmentation: Σ_n F_n(M), in GPU-milli. */
    public static double ofCluster(DeviceCluster c, TargetWorkload w) {
        double sum = 0;
        for (int n = 0; n < c.size(); n++) {
            sum += ofNode(c.cpuFree(n), c.gpuFreeView(n), c.node(n).model(), w);
        }
        return sum;
    }
}
