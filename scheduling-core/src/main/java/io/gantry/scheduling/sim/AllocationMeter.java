package io.gantry.scheduling.sim;

import io.gantry.scheduling.engine.Allocator;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies allocations and releases to the cluster and keeps the time integrals the metrics need.
 * Per-node GPU shares are kept as a running sum and sum of squares, so the node-balance CV costs
 * O(1) per event instead of O(nodes).
 */
final class AllocationMeter implements Allocator {

    private final ClusterState cluster;
    private final Resources capacity;
    private final Map<String, Integer> index = new HashMap<>();
    private final double[] nodeGpuShare;
    private long gpu;
    private long cpu;
    private long mem;
    private double sumShare;
    private double sumShareSq;
    private double gpuIntegral;
    private double cpuIntegral;
    private double memIntegral;
    private double cvIntegral;
    private double busyTime;
    private double maxGpuRatioSeen;

    AllocationMeter(ClusterState cluster) {
        this.cluster = cluster;
        this.capacity = cluster.totalCapacity();
        List<NodeState> nodes = cluster.nodes();
        nodeGpuShare = new double[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).name(), i);
        }
    }

    @Override
    public void allocate(JobRequest job, List<String> nodes) {
        for (String node : nodes) {
            // ClusterState refuses over-allocation: a policy that over-commits fails the replay loudly.
            cluster.allocate(node, job.perTask());
            refresh(node);
        }
        change(job.total(), 1);
        maxGpuRatioSeen = Math.max(maxGpuRatioSeen, gpuRatio());
    }

    @Override
    public void release(JobRequest job, List<String> nodes) {
        for (String node : nodes) {
            cluster.release(node, job.perTask());
            refresh(node);
        }
        change(job.total(), -1);
    }

    /** Accumulates the allocation that held for the last {@code dt} seconds. */
    void advance(double dt) {
        if (dt <= 0) {
            return;
        }
        gpuIntegral += dt * gpuRatio();
        cpuIntegral += dt * ratio(cpu, capacity.cpuMilli());
        memIntegral += dt * ratio(mem, capacity.memoryMib());
        int n = nodeGpuShare.length;
        double mean = sumShare / n;
        if (mean > 1e-12) {
            double variance = Math.max(0, sumShareSq / n - mean * mean);
            cvIntegral += dt * Math.sqrt(variance) / mean;
            busyTime += dt;
        }
    }

    double gpuRatio() {
        return ratio(gpu, capacity.gpuMilli());
    }

    double meanGpuRatio(double span) {
        return span > 0 ? gpuIntegral / span : 0;
    }

    double meanCpuRatio(double span) {
        return span > 0 ? cpuIntegral / span : 0;
    }

    double meanMemRatio(double span) {
        return span > 0 ? memIntegral / span : 0;
    }

    /** Time-average CV over the time when at least one GPU share was allocated. */
    double meanNodeCv() {
        return busyTime > 0 ? cvIntegral / busyTime : 0;
    }

    double maxGpuRatioSeen() {
        return maxGpuRatioSeen;
    }

    private void refresh(String node) {
        int i = index.get(node);
        double before = nodeGpuShare[i];
        double after = cluster.node(node).gpuAllocatedRatio();
        nodeGpuShare[i] = after;
        sumShare += after - before;
        sumShareSq += after * after - before * before;
    }

    private void change(Resources r, int sign) {
        gpu += sign * r.gpuMilli();
        cpu += sign * r.cpuMilli();
        mem += sign * r.memoryMib();
    }

    private static double ratio(long used, long total) {
        return total == 0 ? 0 : (double) used / total;
    }
}
