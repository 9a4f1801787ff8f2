package io.gantry.scheduling.gpushare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.trace.BadRow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real cluster and pod lists through the protocol: every placement is checked against a shadow ledger kept here,
 * independently of {@link DeviceCluster}: the node's GPU model is one the pod accepts, the pod got the devices it asked
 * for, each of them lost exactly the pod's share, no device ever holds more than 1000 milli.
 */
class DefaultRunInvariantsTest {

    private static final List<GpuNode> NODES = OpenbGpuFiles.loadNodes(
            OpenbGpuFiles.traceDir().resolve(OpenbGpuFiles.GPU_NODE_LIST), new ArrayList<>());

    @Test
    void theShippedGpuNodeListIsTheFgdPapersCluster() {
        assertEquals(1213, NODES.size());
        assertEquals(6212, NODES.stream().mapToInt(GpuNode::gpus).sum());
        assertEquals(549, NODES.stream().filter(n -> n.model().equals("G2") && n.gpus() == 8).count());
    }

    @Test
    void everyPlacementOfTheDefaultRunKeepsModelsAndDeviceCapacity() {
        for (String policy : List.of("fgd", "best-fit", "random")) {
            assertEquals(0, check("openb_pod_list_default.csv", policy), policy);
        }
    }

    @Test
    void gpuSpecConstraintsHoldWhereThePodListHasThem() {
        // The default list has no gpu_spec; gpuspec33 constrains a third of the GPU pods, and they are placed.
        assertTrue(check("openb_pod_list_gpuspec33.csv", "fgd") > 1000);
    }

    /** Runs the protocol, asserting on every placement; returns how many placed pods carried a gpu_spec. */
    private static int check(String podFile, String policy) {
        List<BadRow> bad = new ArrayList<>();
        List<GpuPod> pods = OpenbGpuFiles.loadPods(OpenbGpuFiles.traceDir().resolve(podFile), bad);
        assertEquals(List.of(), bad);
        int[][] used = new int[NODES.size()][GpuNode.MAX_GPUS];
        int[] constrained = {0};
        FragProtocol protocol = new FragProtocol(NODES, pods, TargetWorkload.typicalPods(pods, 1.0), 1.3);
        FragCurve curve = protocol.run(GpuSharePolicies.create(policy, pods, 42), 42, (pod, where, cluster) -> {
            GpuNode node = cluster.node(where.node());
            PodShape s = pod.shape();
            assertTrue(s.accepts(node.model()), pod.name() + " (" + s.gpuSpec() + ") on a " + node.model() + " node");
            assertEquals(s.gpus(), where.devices().length, pod.name());
            for (int d : where.devices()) {
                used[where.node()][d] += s.gpuMilli();
                assertTrue(used[where.node()][d] <= 1000, pod.name() + ": device over 1000 milli");
                assertEquals(1000 - used[where.node()][d], cluster.gpuFree(where.node(), d), pod.name());
            }
            assertTrue(cluster.cpuFree(where.node()) >= 0 && cluster.memoryFree(where.node()) >= 0, pod.name());
            constrained[0] += s.gpuSpec().isEmpty() ? 0 : 1;
        }, null);
        assertTrue(curve.placedPods() > 7000, policy + " placed " + curve.placedPods());
        return constrained[0];
    }
}
