package io.gantry.scheduling.gpushare;

/**
 * Gantry's GPU-sharing placer: FGD's fragmentation gradient ({@link FgdScorer}, same target workload, same integer
 * score), with its ties, which the Kubernetes scheduler breaks uniformly at random, broken by what the node's devices
 * and CPU say about the pods still to come:
 * <ul>
 *   <li>a CPU-only pod goes, among FGD's best nodes, to the one with the fewest free GPU-milli: CPU taken there
 *       cannot strand GPUs that later GPU pods need (a GPU pod needs CPU on the node of its device);</li>
 *   <li>a pod sharing a GPU goes to the node where the device it takes is left with the least free milli, so the
 *       gaps left behind are few and small (its device is still FGD's choice);</li>
 *   <li>a pod of whole GPUs keeps FGD's random tie-break.</li>
 * </ul>
 * Measured (bench/README.md, "GPU sharing"): 0.19 points above FGD on the default list, not the 1 point the issue
 * asks (the README shows why the headroom there is that small); 1 to 2.7 points above it on the lists where most GPU
 * pods share a device (gpushare60/80), a quarter are tied to models (gpuspec25) or CPU-only pods abound (cpu235).
 */
public final class GantryFragScorer implements GpuScorer {

    /** Tie-break values stay below this, so they never outweigh one point of FGD's score. */
    private static final long TIE_RANGE = 1 << 16;

    private final FgdScorer fgd;

    public GantryFragScorer(TargetWorkload w) {
        this.fgd = FgdScorer.paper(w);
    }

    @Override
    public String name() {
        return "gantry-frag";
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        return fgd.score(c, node, pod) * TIE_RANGE + tieBreak(c, node, pod.shape());
    }

    private static long tieBreak(DeviceCluster c, int node, PodShape s) {
        if (s.gpus() == 0) {
            return GpuNode.MAX_GPUS * 1000 - c.gpuFreeOnNode(node);
        }
        if (!s.sharesGpu()) {
            return 0;
        }
        int smallestLeft = 1000;
        for (int g : c.gpuFreeView(node)) {
            if (g >= s.gpuMilli()) {
                smallestLeft = Math.min(smallestLeft, g - s.gpuMilli());
            }
        }
        return 1000 - smallestLeft;
    }

    @Override
    public int[] devices(DeviceCluster c, int node, GpuPod pod) {
        return fgd.devices(c, node, pod);
    }

    @Override
    public boolean cacheable() {
        return true;
    }
}
