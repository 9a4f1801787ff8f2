package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.config.SimulatedClusterConfig;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated cluster's nodes: what each holds, in scheduling-core's {@link ClusterState} (so they refuse exactly
 * what the scheduler's model would refuse and are never over-allocated), and the CPU idle time each has had, derived
 * from the requests of the pods on it. Not thread-safe: {@link SimulatedCluster} uses it under its lock.
 */
final class SimulatedNodes {

    private final ClusterState state;
    private final Map<String, CpuIdleAccount> idleByNode = new HashMap<>();

    /**
     * {@code sim-node-01} … of the configured shape, or the nodes of the configured node list, all idle since
     * {@code nowSimSeconds}.
     */
    SimulatedNodes(SimulatedClusterConfig config, double nowSimSeconds) {
        List<NodeSpec> nodeSpecs = config.nodesFile().map(f -> fromNodeList(Path.of(f))).orElseGet(() -> identical(config));
        for (NodeSpec n : nodeSpecs) {
            idleByNode.put(n.name(), new CpuIdleAccount((int) (n.capacity().cpuMilli() / 1000), nowSimSeconds));
        }
        this.state = new ClusterState(nodeSpecs);
    }

    private static List<NodeSpec> identical(SimulatedClusterConfig config) {
        Resources shape = Resources.ofGpus(config.gpusPerNode(), config.vcpusPerNode(), config.memoryGibPerNode());
        List<NodeSpec> nodeSpecs = new ArrayList<>();
        for (int i = 1; i <= config.nodes(); i++) {
            nodeSpecs.add(new NodeSpec(String.format("sim-node-%02d", i), shape));
        }
        return nodeSpecs;
    }

    static String describe(SimulatedClusterConfig c) {
        return c.nodesFile().map(f -> "the nodes of " + f).orElseGet(() -> String.format(
                "%d nodes of %d GPU / %d vCPU / %d GiB", c.nodes(), c.gpusPerNode(), c.vcpusPerNode(),
                c.memoryGibPerNode()));
    }

    /** The nodes of a list in the trace's format, by scheduling-core's loader; a bad file is refused with why. */
    static List<NodeSpec> fromNodeList(Path file) {
        return OpenbGpuFiles.nodeSpecs(OpenbGpuFiles.loadNodesOrExplain(file, "gantry.simulated-cluster.nodes-file"));
    }

    /** Why task {@code i} of {@code perTask} cannot go on {@code nodes.get(i)}, all of them; null when they fit. */
    BindOutcome.Refused refusal(List<String> nodes, Resources perTask) {
        for (Map.Entry<String, Integer> e : tasksPerNode(nodes).entrySet()) {
            if (!state.hasNode(e.getKey())) {
                return new BindOutcome.Refused("unknown_node", "node " + e.getKey() + " is not in the simulated cluster");
            }
            NodeState node = state.node(e.getKey());
            Resources needed = perTask.times(e.getValue());
            if (!node.fits(needed)) {
                return new BindOutcome.Refused("insufficient_resources", e.getValue() + " task(s) of " + describe(perTask)
                        + " do not fit on " + node.name() + ": free " + describe(node.free()));
            }
        }
        return null;
    }

    /** Whether task {@code i} of {@code perTask} fits on {@code nodes.get(i)}, all of them. */
    boolean fits(List<String> nodes, Resources perTask) {
        return tasksPerNode(nodes).entrySet().stream().allMatch(e -> state.hasNode(e.getKey())
                && state.node(e.getKey()).fits(perTask.times(e.getValue())));
    }

    /** Charges task {@code i} to {@code nodes.get(i)} at simulated instant {@code now}; they must fit. */
    void allocate(List<String> nodes, Resources perTask, double now) {
        tasksPerNode(nodes).keySet().forEach(n -> idleByNode.get(n).advanceTo(now, state.node(n).allocated()));
        for (String node : nodes) {
            state.allocate(node, perTask);
        }
    }

    /** Releases what {@link #allocate} charged, at simulated instant {@code now}. */
    void release(List<String> nodes, Resources perTask, double now) {
        tasksPerNode(nodes).keySet().forEach(n -> idleByNode.get(n).advanceTo(now, state.node(n).allocated()));
        for (String node : nodes) {
            state.release(node, perTask);
        }
    }

    /** Every node with its capacity, allocation, pods and CPU idle counters at simulated instant {@code now}. */
    ClusterSnapshot snapshot(double now, Collection<RunningJob> running) {
        Map<String, List<ClusterSnapshot.Pod>> podsByNode = new HashMap<>();
        for (RunningJob job : running) {
            for (int i = 0; i < job.nodes().size(); i++) {
                podsByNode.computeIfAbsent(job.nodes().get(i), n -> new ArrayList<>())
                        .add(new ClusterSnapshot.Pod(job.podName(i), job.jobId(), job.decision().user(), job.perTask(),
                                job.decision().gpuDevices().isEmpty() ? List.of() : job.decision().gpuDevices().get(i)));
            }
        }
        List<ClusterSnapshot.Node> nodes = new ArrayList<>();
        for (NodeState n : state.nodes()) {
            CpuIdleAccount idle = idleByNode.get(n.name());
            idle.advanceTo(now, n.allocated());
            nodes.add(new ClusterSnapshot.Node(n.name(), n.capacity(), n.allocated(),
                    podsByNode.getOrDefault(n.name(), List.of()), idle.idleSecondsPerCpu()));
        }
        return new ClusterSnapshot(now, nodes);
    }

    private static Map<String, Integer> tasksPerNode(List<String> nodes) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String node : nodes) {
            out.merge(node, 1, Integer::sum);
        }
        return out;
    }

    private static String describe(Resources r) {
        return String.format("%.3f GPU / %d mCPU / %d MiB", r.gpus(), r.cpuMilli(), r.memoryMib());
    }
}
