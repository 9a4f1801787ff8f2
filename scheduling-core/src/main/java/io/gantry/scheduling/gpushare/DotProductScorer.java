package io.gantry.scheduling.gpushare;

/**
 * Dot-product (Tetris' alignment, Grandl et al., SIGCOMM 2014, as the FGD paper's §5.1 baseline; simulator
 * {@code dot_product_score.go} with {@code dimExtMethod: merge}, {@code normMethod: max}): the node's free vector and the
 * pod's request, each as (CPU / 128,000 m, GPU / 8,000 m) with the node's GPU summed over its devices;
 * <pre>  score = ⌊100 · (1 − (free · request) / 2)⌋</pre>
 * so the node whose free resources align least with the request scores highest, as in that simulator. The device is
 * the best-fitting one ({@code gpuSelMethod: best}).
 */
public final class DotProductScorer extends NodeStateScorer {

    public DotProductScorer() {
        super("dot-product");
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        PodShape s = pod.shape();
        double dot = (c.cpuFree(node) / BestFitScorer.MAX_SPEC_CPU) * (s.cpuMilli() / BestFitScorer.MAX_SPEC_CPU)
                + (c.gpuFreeOnNode(node) / BestFitScorer.MAX_SPEC_GPU) * (s.totalGpuMilli() / BestFitScorer.MAX_SPEC_GPU);
        return (long) (100 * (1 - dot / 2));
    }
}
