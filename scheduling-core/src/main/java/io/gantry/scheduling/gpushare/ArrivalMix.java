package io.gantry.scheduling.gpushare;

import java.util.HashMap;
import java.util.Map;

/**
 * A target workload learned online from the pods that have arrived so far, which is all a live scheduler knows: no
 * pod list in advance, no peek at what is still to come. The shapes are counted as pods arrive (whether they fit or
 * not) and the workload is rebuilt whenever the arrivals have doubled since the last rebuild, or {@code maxStep} more
 * have come: it follows the first pods closely and then settles. Each rebuild moves the {@link #epoch}, which expires
 * every cached node score, so rebuilds are kept few (about 20 in a 10,800-pod run).
 */
public final class ArrivalMix implements WorkloadSource {

    private final Map<PodShape, Double> counts = new HashMap<>();
    private final int maxStep;
    private TargetWorkload current;
    private long epoch;
    private long arrived;
    private long arrivedAtRebuild;

    public ArrivalMix(int maxStep) {
        if (maxStep < 1) {
            throw new IllegalArgumentException("maxStep must be at least 1, got " + maxStep);
        }
        this.maxStep = maxStep;
    }

    @Override
    public TargetWorkload current() {
        if (current == null) {
            throw new IllegalStateException("no pod has arrived yet: the learned workload is empty");
        }
        return current;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public void arrived(GpuPod pod) {
        counts.merge(pod.shape(), 1.0, Double::sum);
        arrived++;
        if (current == null || arrived >= 2 * arrivedAtRebuild || arrived - arrivedAtRebuild >= maxStep) {
            current = TargetWorkload.fromCounts(counts, 1.0);
            arrivedAtRebuild = arrived;
            epoch++;
        }
    }
}
