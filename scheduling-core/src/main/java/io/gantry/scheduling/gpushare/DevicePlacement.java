package io.gantry.scheduling.gpushare;

import io.gantry.scheduling.engine.Allocator;
import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * GPU-sharing placement for a driver of the {@link SchedulingEngine} (the live scheduler): the engine's policy still
 * decides which jobs start and which stop, and one of the {@link GpuSharePolicies} plugins decides where each starts,
 * per device, with the very {@link ScoringPlacer} and {@link DeviceCluster} that {@code ./gantry bench-frag} runs.
 * {@link #wrap} puts the plugin behind the policy ({@link DevicePlacingPolicy}); {@link #allocator} mirrors every
 * reservation and release of the engine on the devices, so the plugin always scores the cluster as it is.
 * <p>
 * A task asking {@code g} GPU-milli is, per device: a share of one GPU when {@code g < 1000}, else
 * {@code ⌈g / 1000⌉} whole GPUs (the trace's {@code num_gpu × gpu_milli}, trace README "Pod schema"). Nodes come with
 * their capacity (their GPU count is {@code gpuMilli / 1000}) and, when known, their GPU model; a node of more than
 * {@link GpuNode#MAX_GPUS} GPUs or with a fractional GPU capacity is not tracked per device, and jobs placed there keep
 * the policy's node and get no devices. Not thread-safe: the engine's driver calls it on one thread.
 */
public final class DevicePlacement {

    /** One running job's devices: {@code devices[i]} of {@code nodes.get(i)} hold task i. */
    record Held(GpuPod pod, List<String> nodes, int[][] devices) {
    }

    private final GpuScorer scorer;
    private final RandomGenerator tieBreak;
    private final Map<String, String> modelByNode;
    private final Map<String, GpuNode> nodes = new LinkedHashMap<>();
    private final Map<String, Integer> indexOf = new HashMap<>();
    private final Map<String, Held> held = new LinkedHashMap<>();
    /** Devices chosen by the last decision, taken when the engine reserves the job. */
    private final Map<String, int[][]> chosen = new HashMap<>();
    private DeviceCluster cluster = new DeviceCluster(List.of());
    private int untracked;

    /**
     * @param modelByNode the GPU model of each node by name (e.g. from {@code openb_node_list_gpu_node.csv}); a node
     *                    absent from it has model {@code "unknown"}, which no {@code gpu_spec} names
     */
    public DevicePlacement(GpuScorer scorer, RandomGenerator tieBreak, Map<String, String> modelByNode) {
        this.scorer = scorer;
        this.tieBreak = tieBreak;
        this.modelByNode = Map.copyOf(modelByNode);
    }

    public GpuScorer scorer() {
        return scorer;
    }

    /** The pod the plugins see for one task of {@code job}; null when no node tracked per device could hold it. */
    public static GpuPod pod(JobRequest job) {
        Resources t = job.perTask();
        long g = t.gpuMilli();
        int gpus = g == 0 ? 0 : g < 1000 ? 1 : (int) Math.min(GpuNode.MAX_GPUS + 1, (g + 999) / 1000);
        if (gpus > GpuNode.MAX_GPUS || t.cpuMilli() > Integer.MAX_VALUE) {
            return null;
        }
        return new GpuPod(job.id(), new PodShape((int) t.cpuMilli(), gpus, gpus == 0 ? 0 : (int) Math.min(g, 1000), ""),
                t.memoryMib());
    }

    /** Adds a node or takes its new capacity; the running jobs' devices are placed again on the rebuilt cluster. */
    public void upsertNode(String name, Resources capacity) {
        long g = capacity.gpuMilli();
        if (g % 1000 != 0 || g / 1000 > GpuNode.MAX_GPUS || capacity.cpuMilli() > Integer.MAX_VALUE) {
            if (nodes.remove(name) != null) {
                rebuild();
            }
            return;
        }
        int gpus = (int) (g / 1000);
        GpuNode node = new GpuNode(name, (int) capacity.cpuMilli(), capacity.memoryMib(), gpus,
                gpus == 0 ? "" : modelByNode.getOrDefault(name, "unknown"));
        if (!node.equals(nodes.put(name, node))) {
            rebuild();
        }
    }

    private void rebuild() {
        cluster = new DeviceCluster(List.copyOf(nodes.values()));
        indexOf.clear();
        int i = 0;
        for (String n : nodes.keySet()) {
            indexOf.put(n, i++);
        }
        List<String> lost = new ArrayList<>();
        held.forEach((id, h) -> {
            if (!placeAll(cluster, h)) {
                lost.add(id);
            }
        });
        lost.forEach(held::remove);
        untracked += lost.size();
    }

    /** Places every task of {@code h} on {@code c}, or none: false when one does not fit (or its node is gone). */
    boolean placeAll(DeviceCluster c, Held h) {
        for (int k = 0; k < h.nodes().size(); k++) {
            Integer idx = indexOf.get(h.nodes().get(k));
            try {
                if (idx == null) {
                    throw new IllegalStateException("node " + h.nodes().get(k) + " not tracked");
                }
                c.place(idx, h.pod(), h.devices()[k]);
            } catch (IllegalStateException e) {
                for (int u = 0; u < k; u++) {
                    c.release(indexOf.get(h.nodes().get(u)), h.pod(), h.devices()[u]);
                }
                return false;
            }
        }
        return true;
    }

    void releaseAll(DeviceCluster c, Held h) {
        for (int k = 0; k < h.nodes().size(); k++) {
            c.release(indexOf.get(h.nodes().get(k)), h.pod(), h.devices()[k]);
        }
    }

    /**
     * Holds the devices a job was decided on before a restart ({@code devices.get(i)} for task i; best-fit ones when its
     * decision named none); false (nothing held) when they no longer fit: the job then holds its node totals only.
     */
    public boolean hold(JobRequest job, List<String> onNodes, List<List<Integer>> devices) {
        GpuPod pod = pod(job);
        if (pod == null) {
            untracked++;
            return false;
        }
        int[][] d = devices.size() == onNodes.size()
                ? devices.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new)
                : bestFitDevices(pod, onNodes);
        if (d == null) {
            untracked++;
            return false;
        }
        Held h = new Held(pod, List.copyOf(onNodes), d);
        held.remove(job.id());
        if (!placeAll(cluster, h)) {
            untracked++;
            return false;
        }
        held.put(job.id(), h);
        return true;
    }

    /**
     * Devices for a job decided without them (before placement per device was on): best fit per task, as a gang gets
     * them, so the devices still count what it holds; null when they do not fit.
     */
    private int[][] bestFitDevices(GpuPod pod, List<String> onNodes) {
        DeviceCluster trial = cluster.copy();
        int[][] d = new int[onNodes.size()][];
        for (int k = 0; k < d.length; k++) {
            Integer idx = indexOf.get(onNodes.get(k));
            if (idx == null || !trial.fits(idx, pod)) {
                return null;
            }
            d[k] = DeviceChoice.bestFit(trial.gpuFreeView(idx), pod.shape());
            trial.place(idx, pod, d[k]);
        }
        return d;
    }

    /** The devices a running job holds, per task; empty when it holds none (CPU-only, or not tracked). */
    public List<List<Integer>> devicesOf(String jobId) {
        Held h = held.get(jobId);
        if (h == null || h.pod().shape().gpus() == 0) {
            return List.of();
        }
        List<List<Integer>> out = new ArrayList<>(h.devices().length);
        for (int[] d : h.devices()) {
            out.add(java.util.Arrays.stream(d).boxed().toList());
        }
        return out;
    }

    /** Running jobs whose devices could not be tracked (a restore that no longer fits, a node that shrank). */
    public int untracked() {
        return untracked;
    }

    /** The plugin behind {@code policy}: it keeps the policy's choice of jobs, and chooses their nodes and devices. */
    public SchedulingPolicy wrap(SchedulingPolicy policy) {
        if (policy instanceof ElasticPolicy) {
            throw new IllegalArgumentException("GPU-sharing placement does not resize jobs; policy " + policy.name()
                    + " is elastic");
        }
        return new DevicePlacingPolicy(policy, this);
    }

    /** {@code base} (the engine's cluster), with every reservation and release mirrored on the devices. */
    public Allocator allocator(Allocator base) {
        return new Allocator() {
            @Override
            public void allocate(JobRequest job, List<String> onNodes) {
                base.allocate(job, onNodes);
                int[][] devices = chosen.remove(job.id());
                GpuPod pod = pod(job);
                if (devices != null && pod != null) {
                    Held h = new Held(pod, List.copyOf(onNodes), devices);
                    if (placeAll(cluster, h)) {
                        held.put(job.id(), h);
                        return;
                    }
                }
                untracked++;
            }

            @Override
            public void release(JobRequest job, List<String> onNodes) {
                base.release(job, onNodes);
                Held h = held.remove(job.id());
                if (h != null) {
                    releaseAll(cluster, h);
                }
            }
        };
    }

    // What DevicePlacingPolicy reads and writes.

    DeviceCluster cluster() {
        return cluster;
    }

    Integer index(String node) {
        return indexOf.get(node);
    }

    Held heldBy(String jobId) {
        return held.get(jobId);
    }

    RandomGenerator tieBreak() {
        return tieBreak;
    }

    void choose(String jobId, int[][] devices) {
        chosen.put(jobId, devices);
    }

    void forgetChoices() {
        chosen.clear();
    }
}
