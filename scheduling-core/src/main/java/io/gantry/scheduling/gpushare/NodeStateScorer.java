package io.gantry.scheduling.gpushare;

/**
 * A scorer of the FGD study whose score depends only on the node's state and the pod's shape, and which gives a pod
 * the best-fitting device ({@code gpuSelMethod: best}, the simulator's default): best-fit, dot-product, GPU
 * clustering and GPU packing.
 */
abstract class NodeStateScorer implements GpuScorer {

    private final String name;

    NodeStateScorer(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int[] devices(DeviceCluster c, int node, GpuPod pod) {
        return DeviceChoice.bestFit(c.gpuFreeView(node), pod.shape());
    }

    @Override
    public final boolean cacheable() {
        return true;
    }
}
