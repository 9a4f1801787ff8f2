package io.gantry.scheduling.gpushare;

import java.util.random.RandomGenerator;

/**
 * Which devices of a node a pod takes, as the study's simulator chooses them ({@code open_gpu_share.go}): a pod of whole
 * GPUs takes the first idle devices by index ({@code AllocateExclusiveGpuId}); a pod sharing a GPU takes the fitting
 * device with the least free ("best"), or one of the fitting devices at random ("random").
 */
public final class DeviceChoice {

    private static final int[] NONE = new int[0];

    private DeviceChoice() {
    }

    /** Best fit for a shared GPU; the first idle devices for whole GPUs; none for a CPU-only pod. */
    public static int[] bestFit(int[] gpuFree, PodShape s) {
        if (!s.sharesGpu()) {
            return firstIdle(gpuFree, s.gpus());
        }
        int best = -1;
        for (int d = 0; d < gpuFree.length; d++) {
            if (gpuFree[d] >= s.gpuMilli() && (best < 0 || gpuFree[d] < gpuFree[best])) {
                best = d;
            }
        }
        return one(best);
    }

    /** A fitting device drawn uniformly for a shared GPU; the first idle devices for whole GPUs. */
    public static int[] randomFit(int[] gpuFree, PodShape s, RandomGenerator rnd) {
        if (!s.sharesGpu()) {
            return firstIdle(gpuFree, s.gpus());
        }
        int chosen = -1;
        int seen = 0;
        for (int d = 0; d < gpuFree.length; d++) {
            if (gpuFree[d] >= s.gpuMilli() && rnd.nextInt(++seen) == 0) {
                chosen = d;
            }
        }
        return one(chosen);
    }

    /** The first {@code count} devices with all 1000 milli free, by index. */
    public static int[] firstIdle(int[] gpuFree, int count) {
        if (count == 0) {
            return NONE;
        }
        int[] out = new int[count];
        int k = 0;
        for (int d = 0; d < gpuFree.length && k < count; d++) {
            if (gpuFree[d] == 1000) {
                out[k++] = d;
            }
        }
        if (k < count) {
            throw new IllegalStateException("node has " + k + " idle devices, pod needs " + count);
        }
        return out;
    }

    private static int[] one(int device) {
        if (device < 0) {
            throw new IllegalStateException("no device of the node has room for the pod");
        }
        return new int[] {device};
    }
}
