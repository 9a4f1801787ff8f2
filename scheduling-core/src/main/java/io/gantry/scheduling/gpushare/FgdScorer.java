package io.gantry.scheduling.gpushare;

/**
 * Fragmentation Gradient Descent (Weng et al., USENIX ATC 2023, §4, Algorithm 1; simulator {@code fgd_score.go},
 * {@code calculateGpuShareFragExtendScore}): place the pod where the node's fragmentation {@link Fragmentation F_n(M)}
 * grows least. For each admitting node, Δ = F_n(M) before − F_n(M) after the placement, and
 * <pre>  score = ⌊100 · sigmoid(Δ / 1000)⌋</pre>
 * A pod sharing a GPU is tried on every device with room and takes the one with the highest score (the first on ties);
 * a pod of whole GPUs takes the first idle devices. With {@code quantised = false} (a Gantry variant, not the paper's)
 * the score is Δ itself, so nodes the integer sigmoid would tie are still told apart.
 */
public final class FgdScorer implements GpuScorer {

    private final String name;
    private final WorkloadSource workload;
    private final boolean quantised;
    private final int[][] scratch = new int[GpuNode.MAX_GPUS + 1][];

    public FgdScorer(String name, WorkloadSource workload, boolean quantised) {
        this.name = name;
        this.workload = workload;
        this.quantised = quantised;
        for (int k = 0; k < scratch.length; k++) {
            scratch[k] = new int[k];
        }
    }

    /** FGD as published: a fixed target workload, integer sigmoid scores. */
    public static FgdScorer paper(TargetWorkload w) {
        return new FgdScorer("fgd", WorkloadSource.fixed(w), true);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        return best(c, node, pod, false);
    }

    @Override
    public int[] devices(DeviceCluster c, int node, GpuPod pod) {
        if (!pod.shape().sharesGpu()) {
            return DeviceChoice.firstIdle(c.gpuFreeView(node), pod.shape().gpus());
        }
        return new int[] {(int) best(c, node, pod, true)};
    }

    /** The best score over the devices the pod could take, or (with {@code wantDevice}) that device. */
    private long best(DeviceCluster c, int node, GpuPod pod, boolean wantDevice) {
        TargetWorkload w = workload.current();
        PodShape s = pod.shape();
        int[] free = c.gpuFreeView(node);
        String model = c.node(node).model();
        int cpuAfter = c.cpuFree(node) - s.cpuMilli();
        double before = Fragmentation.ofNode(c.cpuFree(node), free, model, w);
        int[] after = scratch[free.length];
        System.arraycopy(free, 0, after, 0, free.length);
        if (!s.sharesGpu()) {
            for (int d : DeviceChoice.firstIdle(free, s.gpus())) {
                after[d] = 0;
            }
            return toScore(before - Fragmentation.ofNode(cpuAfter, after, model, w));
        }
        long bestScore = Long.MIN_VALUE;
        int bestDevice = -1;
        for (int d = 0; d < free.length; d++) {
            if (free[d] < s.gpuMilli() || seenEarlier(free, d)) {
                continue;
            }
            after[d] = free[d] - s.gpuMilli();
            long score = toScore(before - Fragmentation.ofNode(cpuAfter, after, model, w));
            after[d] = free[d];
            if (score > bestScore) {
                bestScore = score;
                bestDevice = d;
            }
        }
        return wantDevice ? bestDevice : bestScore;
    }

    /** A device with the same free milli as an earlier one gives the same fragmentation, so the earlier one wins. */
    private static boolean seenEarlier(int[] free, int d) {
        for (int e = 0; e < d; e++) {
            if (free[e] == free[d]) {
                return true;
            }
        }
        return false;
    }

    private long toScore(double delta) {
        if (quantised) {
            return (long) (100.0 / (1.0 + Math.exp(-delta / 1000)));
        }
        return Math.round(delta * 1000);
    }

    @Override
    public boolean cacheable() {
        return true;
    }

    @Override
    public long epoch() {
        return workload.epoch();
    }

    @Override
    public void arrived(GpuPod pod) {
        workload.arrived(pod);
    }
}
