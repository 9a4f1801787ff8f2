package io.gantry.scheduling.gpushare;

import java.util.Arrays;
import java.util.List;

/**
 * The cluster with every GPU device tracked on its own, since fragmentation lives in the devices and not in node totals
 * (FGD paper, §2.2): per node the free CPU and memory, and per device its free GPU-milli (1000 when idle). A pod sharing
 * a GPU takes {@code gpuMilli} of one device; a pod of whole GPUs takes that many idle devices of one node. Every
 * placement is checked here, so no policy can put a pod on a node of a model it does not accept, on a device without
 * the room, or beyond a node's CPU or memory.
 */
public final class DeviceCluster {

    /** Index into {@link #podsWithTag}: pods sharing a GPU, then pods of 1..8 whole GPUs. */
    static final int SHARE_TAG = 0;

    private final List<GpuNode> nodes;
    private final int[] cpuFree;
    private final long[] memFree;
    private final int[][] gpuFree;
    /** Per node, the GPU pods on it by kind (the simulator's {@code GpuAffinity}), for GPU clustering. */
    private final int[][] podsWithTag;
    /** Bumped by every change of a node, so scorers can cache what they computed for its state. */
    private final int[] version;
    private final long totalGpuMilli;
    private long allocatedGpuMilli;

    public DeviceCluster(List<GpuNode> nodes) {
        this.nodes = List.copyOf(nodes);
        int n = nodes.size();
        cpuFree = new int[n];
        memFree = new long[n];
        gpuFree = new int[n][];
        podsWithTag = new int[n][GpuNode.MAX_GPUS + 1];
        version = new int[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            GpuNode node = nodes.get(i);
            cpuFree[i] = node.cpuMilli();
            memFree[i] = node.memoryMib();
            gpuFree[i] = new int[node.gpus()];
            Arrays.fill(gpuFree[i], 1000);
            total += 1000L * node.gpus();
        }
        totalGpuMilli = total;
    }

    /** An independent copy of {@code o}'s state, for trying placements that may be abandoned. */
    private DeviceCluster(DeviceCluster o) {
        nodes = o.nodes;
        cpuFree = o.cpuFree.clone();
        memFree = o.memFree.clone();
        gpuFree = new int[o.gpuFree.length][];
        for (int i = 0; i < gpuFree.length; i++) {
            gpuFree[i] = o.gpuFree[i].clone();
        }
        podsWithTag = new int[o.podsWithTag.length][];
        for (int i = 0; i < podsWithTag.length; i++) {
            podsWithTag[i] = o.podsWithTag[i].clone();
        }
        version = o.version.clone();
        totalGpuMilli = o.totalGpuMilli;
        allocatedGpuMilli = o.allocatedGpuMilli;
    }

    public DeviceCluster copy() {
        return new DeviceCluster(this);
    }

    public int size() {
        return nodes.size();
    }

    public GpuNode node(int i) {
        return nodes.get(i);
    }

    public int cpuFree(int node) {
        return cpuFree[node];
    }

    public long memoryFree(int node) {
        return memFree[node];
    }

    /** The free GPU-milli of each device of {@code node}; the caller must not change it. */
    int[] gpuFreeView(int node) {
        return gpuFree[node];
    }

    public int gpuFree(int node, int device) {
        return gpuFree[node][device];
    }

    public int gpuFreeOnNode(int node) {
        int s = 0;
        for (int g : gpuFree[node]) {
            s += g;
        }
        return s;
    }

    int version(int node) {
        return version[node];
    }

    int podsWithTag(int node, int tag) {
        return podsWithTag[node][tag];
    }

    boolean hasGpuPods(int node) {
        for (int c : podsWithTag[node]) {
            if (c > 0) {
                return true;
            }
        }
        return false;
    }

    public long totalGpuMilli() {
        return totalGpuMilli;
    }

    public long allocatedGpuMilli() {
        return allocatedGpuMilli;
    }

    /** Whether {@code pod} fits {@code node} at all: CPU, memory, the GPU model and enough devices with room. */
    public boolean fits(int node, GpuPod pod) {
        PodShape s = pod.shape();
        if (cpuFree[node] < s.cpuMilli() || memFree[node] < pod.memoryMib()) {
            return false;
        }
        if (s.gpus() == 0) {
            return true;
        }
        if (!s.accepts(nodes.get(node).model())) {
            return false;
        }
        int room = 0;
        for (int g : gpuFree[node]) {
            if (g >= s.gpuMilli()) {
                room++;
            }
        }
        return room >= s.gpus();
    }

    /** Places {@code pod} on {@code node}, taking {@code gpuMilli} from each of {@code devices}; rejects any breach. */
    public void place(int node, GpuPod pod, int[] devices) {
        PodShape s = pod.shape();
        String where = pod.name() + " on " + nodes.get(node).name();
        if (devices.length != s.gpus()) {
            throw new IllegalStateException(where + ": " + devices.length + " devices chosen for " + s.gpus() + " GPUs");
        }
        if (!fits(node, pod)) {
            throw new IllegalStateException(where + ": does not fit (CPU, memory, GPU model or devices)");
        }
        for (int k = 0; k < devices.length; k++) {
            int d = devices[k];
            if (d < 0 || d >= gpuFree[node].length || gpuFree[node][d] < s.gpuMilli()) {
                throw new IllegalStateException(where + ": device " + d + " has no room for " + s.gpuMilli() + " milli");
            }
            for (int j = 0; j < k; j++) {
                if (devices[j] == d) {
                    throw new IllegalStateException(where + ": device " + d + " chosen twice");
                }
            }
        }
        cpuFree[node] -= s.cpuMilli();
        memFree[node] -= pod.memoryMib();
        for (int d : devices) {
            gpuFree[node][d] -= s.gpuMilli();
        }
        if (s.gpus() > 0) {
            podsWithTag[node][s.sharesGpu() ? SHARE_TAG : s.gpus()]++;
        }
        allocatedGpuMilli += s.totalGpuMilli();
        version[node]++;
    }

    /** Gives back what {@link #place} took for {@code pod} on {@code node}'s {@code devices} (a live pod ended). */
    public void release(int node, GpuPod pod, int[] devices) {
        PodShape s = pod.shape();
        for (int d : devices) {
            if (gpuFree[node][d] + s.gpuMilli() > 1000) {
                throw new IllegalStateException(pod.name() + " on " + nodes.get(node).name() + ": device " + d
                        + " would have more than 1000 milli free");
            }
        }
        cpuFree[node] += s.cpuMilli();
        memFree[node] += pod.memoryMib();
        for (int d : devices) {
            gpuFree[node][d] += s.gpuMilli();
        }
        if (s.gpus() > 0) {
            podsWithTag[node][s.sharesGpu() ? SHARE_TAG : s.gpus()]--;
        }
        allocatedGpuMilli -= s.totalGpuMilli();
        version[node]++;
    }
}
