package io.gantry.scheduling.gpushare;

/**
 * GPU packing (FGD paper §5.1 baseline; simulator {@code gpu_packing_score.go}): prefer, in this order,
 * <ol>
 *   <li>devices already shared: {@code max(100 − Σ ⌊100 · free_d / 1000⌋ / 10, 50)} over the devices it would use;</li>
 *   <li>idle devices of a node already in use: {@code max(50 − idle devices it would use, 33)};</li>
 *   <li>a node with every device idle: {@code max(33 − its GPUs, its GPUs)}.</li>
 * </ol>
 * The devices it would use are the fitting ones with the least free first. A CPU-only pod scores 0. The device is the
 * best-fitting one.
 */
public final class GpuPackingScorer extends NodeStateScorer {

    public GpuPackingScorer() {
        super("gpu-packing");
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        PodShape s = pod.shape();
        if (s.gpus() == 0) {
            return 0;
        }
        int[] free = c.gpuFreeView(node);
        int idle = 0;
        for (int g : free) {
            if (g == 1000) {
                idle++;
            }
        }
        if (idle == free.length) {
            return Math.max(33 - idle, idle);
        }
        Integer[] order = new Integer[free.length];
        for (int d = 0; d < free.length; d++) {
            order[d] = d;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(free[a], free[b]));
        int needed = s.gpus();
        int idleUsed = 0;
        long freePercentOnUsed = 0;
        for (int d : order) {
            if (needed == 0) {
                break;
            }
            if (free[d] >= s.gpuMilli()) {
                needed--;
                idleUsed += free[d] == 1000 ? 1 : 0;
                freePercentOnUsed += free[d] * 100L / 1000;
            }
        }
        if (idleUsed > 0) {
            return Math.max(50 - idleUsed, 33);
        }
        return Math.max(100 - freePercentOnUsed / 10, 50);
    }
}
