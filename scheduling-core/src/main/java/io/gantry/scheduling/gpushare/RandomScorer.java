package io.gantry.scheduling.gpushare;

import java.util.random.RandomGenerator;

/**
 * Random-fit (FGD paper §5.1 baseline; simulator {@code random_score.go}): one admitting node drawn uniformly (its
 * PreScore picks one of the filtered nodes and scores it 100, the rest 0), and a fitting device drawn uniformly
 * ({@code allocateGpuIdBasedOnRandomFit}). Drawing an independent uniform score per node and keeping the highest picks
 * each admitting node with the same probability.
 */
public final class RandomScorer implements GpuScorer {

    private final RandomGenerator rnd;

    public RandomScorer(RandomGenerator rnd) {
        this.rnd = rnd;
    }

    @Override
    public String name() {
        return "random";
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        return rnd.nextLong();
    }

    @Override
    public int[] devices(DeviceCluster c, int node, GpuPod pod) {
        return DeviceChoice.randomFit(c.gpuFreeView(node), pod.shape(), rnd);
    }
}
