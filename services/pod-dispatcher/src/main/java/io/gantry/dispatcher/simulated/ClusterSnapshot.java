package io.gantry.dispatcher.simulated;

import io.gantry.scheduling.model.Resources;
import java.util.List;

/** The simulated cluster at one simulated instant; what both the JSON view and the Prometheus exposition show. */
public record ClusterSnapshot(double simulatedEpochSeconds, List<Node> nodes) {

    public record Node(String name, Resources capacity, Resources allocated, List<Pod> pods, double[] idleCpuSeconds) {
    }

    /** {@code gpuDevices}: the node's GPU devices the pod was placed on, when its decision chose them; else empty. */
    public record Pod(String name, String jobId, String user, Resources requests, List<Integer> gpuDevices) {
    }
}
