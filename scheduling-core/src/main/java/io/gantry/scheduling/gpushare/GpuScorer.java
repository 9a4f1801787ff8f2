package io.gantry.scheduling.gpushare;

/**
 * A node-scoring plugin for GPU-sharing placement, the unit the FGD study compares (its simulator's score plugins,
 * {@code pkg/simulator/plugin/*_score.go}): {@link #score} rates each node that admits the pod (higher is better),
 * {@link #devices} says which devices of the winner the pod takes. The {@link ScoringPlacer} filters, scores, breaks
 * ties at random among the best (as the Kubernetes scheduler's {@code selectHost} does) and places.
 */
public interface GpuScorer {

    String name();

    /** The score of {@code node}, which admits {@code pod} ({@link DeviceCluster#fits}). */
    long score(DeviceCluster c, int node, GpuPod pod);

    /** The devices of {@code node} that {@code pod} takes: one for a shared GPU, {@code gpus} idle ones otherwise. */
    int[] devices(DeviceCluster c, int node, GpuPod pod);

    /** Rescales the scores of the admitting nodes, {@code scores[0..count)}, in place (the plugin's NormalizeScore). */
    default void normalize(long[] scores, int count) {
    }

    /**
     * Whether {@link #score} depends only on the node's state (its {@link DeviceCluster#version}), the pod's shape and
     * {@link #epoch}, so the placer may keep it until one of them changes.
     */
    default boolean cacheable() {
        return false;
    }

    /** Changes whenever the scorer's own state changes (a scorer that learns from arrivals); cached scores then expire. */
    default long epoch() {
        return 0;
    }

    /** Told of each pod as it arrives, before it is placed (whether or not it will fit). */
    default void arrived(GpuPod pod) {
    }
}
