package io.gantry.scheduling.gpushare;

/**
 * Best-fit (FGD paper §5.1 baseline; simulator {@code best_fit_score.go}): the node that would have the least left,
 * CPU and GPU weighted equally and each scaled by the largest node spec,
 * <pre>  score = ⌊100 · (1 − Σ_r 0.5 · (free_r − request_r) / maxSpec_r)⌋,  r ∈ {CPU (128,000 m), GPU (8,000 m)}</pre>
 * with the GPU free being the node's total over its devices; the scores are then min-max rescaled to 0..100 with integer
 * arithmetic ({@code NormalizeScore}). The device is the best-fitting one.
 */
public final class BestFitScorer extends NodeStateScorer {

    static final double MAX_SPEC_CPU = 128_000;
    static final double MAX_SPEC_GPU = 8_000;

    public BestFitScorer() {
        super("best-fit");
    }

    @Override
    public long score(DeviceCluster c, int node, GpuPod pod) {
        PodShape s = pod.shape();
        double left = 0.5 * (c.cpuFree(node) - s.cpuMilli()) / MAX_SPEC_CPU
                + 0.5 * (c.gpuFreeOnNode(node) - s.totalGpuMilli()) / MAX_SPEC_GPU;
        return (long) ((1.0 - left) * 100);
    }

    @Override
    public void normalize(long[] scores, int count) {
        minMaxTo100(scores, count);
    }

    /** The simulator's {@code NormalizeScore}: (s − min) · 100 / (max − min), integer division; all 0 when equal. */
    static void minMaxTo100(long[] scores, int count) {
        long hi = Long.MIN_VALUE;
        long lo = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            hi = Math.max(hi, scores[i]);
            lo = Math.min(lo, scores[i]);
        }
        for (int i = 0; i < count; i++) {
            scores[i] = hi == lo ? 0 : (scores[i] - lo) * 100 / (hi - lo);
        }
    }
}
