package io.gantry.scheduling.gpushare;

/**
 * GPU clustering (FGD paper §5.1 baseline after Gandiva's affinity packing, Xiao et al., OSDI 2018; simulator
 * {@code gpu_clustering_score.go}): pods of one kind (sharing a GPU, or k whole GPUs) are kept together. With
 * {@code u = ⌊25 · (8000 − free GPU-milli of the node) / 8000⌋}, a GPU pod scores
 * <ul>
 *   <li>75 + u on a node holding only pods of its kind, 50 + u on one holding its kind among others,</li>
 *   <li>25 + u on a node with no GPU pod, u on one holding only other kinds;</li>
 * </ul>
 * a CPU-only pod scores 0 everywhere. The device is the best-fitting one.
 */
public final class GpuClusteringScorer extends NodeStateScorer {

    public GpuClusteringScorer() {
        super("gpu-clustering");
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        PodShape s = pod.shape();
        if (s.gpus() == 0) {
            return 0;
        }
        long used = 25L * (8000 - c.gpuFreeOnNode(node)) / 8000;
        int tag = s.sharesGpu() ? DeviceCluster.SHARE_TAG : s.gpus();
        int kinds = 0;
        for (int t = 0; t <= GpuNode.MAX_GPUS; t++) {
            if (c.podsWithTag(node, t) > 0) {
                kinds++;
            }
        }
        if (c.podsWithTag(node, tag) > 0) {
            return used + (kinds == 1 ? 75 : 50);
        }
        return used + (kinds == 0 ? 25 : 0);
    }
}
