package io.gantry.scheduling.gpushare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.engine.Allocator;
import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The live path of GPU sharing: the engine's policy picks the jobs, the plugin the nodes and devices. */
class DevicePlacementTest {

    private static final Map<String, String> MODELS = Map.of("a", "T4", "b", "G2", "c", "G2");

    private final ClusterState cluster = new ClusterState(List.of());
    private DevicePlacement devices;
    private SchedulingEngine engine;
    private double now;

    private void start(GpuScorer scorer, long seed, NodeSpec... nodes) {
        devices = new DevicePlacement(scorer, new SplittableRandom(seed), MODELS);
        for (NodeSpec n : nodes) {
            cluster.upsertNode(n);
            devices.upsertNode(n.name(), n.capacity());
        }
        engine = new SchedulingEngine(devices.wrap(new KubeDefaultPolicy()), cluster,
                devices.allocator(Allocator.of(cluster)), false);
    }

    private static NodeSpec node(String name, int gpus) {
        return new NodeSpec(name, new Resources(gpus * 1000L, 64_000, 262_144));
    }

    private static JobRequest job(String id, int tasks, long gpuMilli) {
        return new JobRequest(id, "u", tasks, new Resources(gpuMilli, 4_000, 1024), 0, 0, Double.NaN, Double.NaN);
    }

    private List<RunningJob> submitAndRound(JobRequest... jobs) {
        for (JobRequest j : jobs) {
            engine.submit(j, true);
        }
        return engine.round(now += 1).started();
    }

    @Test
    void bestFitPutsTheSecondShareOnTheDeviceTheFirstLeftFullest() {
        start(new BestFitScorer(), 1, node("a", 2));
        submitAndRound(job("p1", 1, 600));
        assertEquals(List.of(List.of(0)), devices.devicesOf("p1"));
        submitAndRound(job("p2", 1, 300), job("w", 1, 1000));
        assertEquals(List.of(List.of(0)), devices.devicesOf("p2"), "best fit: device 0 has 400 left, device 1 1000");
        assertEquals(List.of(List.of(1)), devices.devicesOf("w"), "a whole GPU takes the idle device");
        assertEquals(100, devices.cluster().gpuFree(0, 0));
        assertEquals(0, devices.cluster().gpuFree(0, 1));
        // 150 fits no device (100 and 0 free), so it waits; once p1 ends, its room on device 0 comes back.
        assertTrue(submitAndRound(job("p3", 1, 150)).isEmpty());
        engine.release("p1");
        assertEquals(700, devices.cluster().gpuFree(0, 0));
        assertEquals(List.of("p3"), submitAndRound().stream().map(r -> r.job().id()).toList());
        assertEquals(List.of(List.of(0)), devices.devicesOf("p3"));
    }

    @Test
    void aShareThatFitsTheNodeTotalsButNoDeviceWaits() {
        start(new BestFitScorer(), 1, node("a", 2));
        submitAndRound(job("x", 1, 600), job("y", 1, 600));
        assertEquals(List.of(List.of(0)), devices.devicesOf("x"));
        assertEquals(List.of(List.of(1)), devices.devicesOf("y"));
        // 800 milli are free on the node, but 400 per device: a 500 share waits, though node totals would admit it.
        assertTrue(submitAndRound(job("z", 1, 500)).isEmpty());
        assertEquals(1, engine.pendingCount());
    }

    @Test
    void theLivePlacementsAreTheSimulatorsOnTheSameArrivals() {
        List<GpuNode> nodes = List.of(new GpuNode("a", 64_000, 262_144, 2, "T4"),
                new GpuNode("b", 64_000, 262_144, 8, "G2"), new GpuNode("c", 64_000, 262_144, 8, "G2"));
        List<JobRequest> jobs = new ArrayList<>();
        long[] sizes = {500, 250, 1000, 2000, 300, 0, 700, 125, 4000, 500};
        for (int i = 0; i < sizes.length; i++) {
            jobs.add(job("j" + i, 1, sizes[i]));
        }
        List<GpuPod> pods = jobs.stream().map(DevicePlacement::pod).toList();
        start(FgdScorer.paper(TargetWorkload.typicalPods(pods, 1.0)), 7, node("a", 2), node("b", 8), node("c", 8));
        DeviceCluster sim = new DeviceCluster(nodes);
        ScoringPlacer simPlacer = new ScoringPlacer(sim, FgdScorer.paper(TargetWorkload.typicalPods(pods, 1.0)),
                new SplittableRandom(7));
        for (int i = 0; i < jobs.size(); i++) {
            List<RunningJob> started = submitAndRound(jobs.get(i));
            ScoringPlacer.Placement expected = simPlacer.place(pods.get(i));
            assertNotNull(expected);
            assertEquals(List.of(nodes.get(expected.node()).name()), started.get(0).nodes(), "node of j" + i);
            List<List<Integer>> want = expected.devices().length == 0 ? List.of()
                    : List.of(java.util.Arrays.stream(expected.devices()).boxed().toList());
            assertEquals(want, devices.devicesOf("j" + i), "devices of j" + i);
        }
    }

    @Test
    void aGangKeepsItsNodesAndTakesBestFitDevicesAndCordonedNodesAreLeftOut() {
        start(new BestFitScorer(), 1, node("b", 8), node("c", 8));
        engine.setSchedulable("b", false);
        submitAndRound(job("s", 1, 500));
        assertEquals("c", engine.runningJob("s").nodes().get(0), "b is cordoned");
        engine.setSchedulable("b", true);
        List<RunningJob> started = submitAndRound(job("gang", 2, 3000));
        assertEquals(2, devices.devicesOf("gang").size());
        for (int k = 0; k < 2; k++) {
            List<Integer> d = devices.devicesOf("gang").get(k);
            assertEquals(3, d.stream().distinct().count(), "three whole devices per task");
            boolean onC = started.get(0).nodes().get(k).equals("c");
            assertTrue(!onC || !d.contains(0), "c's device 0 holds a share, so a whole GPU never takes it");
        }
    }

    @Test
    void gpuModelsComeFromTheNodeListAndRestoredDevicesAreHeld() {
        start(new BestFitScorer(), 1, node("a", 2), node("b", 8), node("d", 1));
        assertEquals("T4", devices.cluster().node(0).model());
        assertEquals("unknown", devices.cluster().node(2).model(), "d is not in the node list");
        assertTrue(devices.hold(job("old", 1, 700), List.of("a"), List.of(List.of(1))));
        assertEquals(300, devices.cluster().gpuFree(0, 1));
        devices.upsertNode("a", new Resources(2000, 64_000, 262_144)); // same capacity: nothing rebuilt or lost
        devices.upsertNode("b", new Resources(4000, 64_000, 262_144)); // b shrank: rebuilt, the hold on a kept
        assertEquals(300, devices.cluster().gpuFree(0, 1));
        assertTrue(!devices.hold(job("late", 1, 700), List.of("a"), List.of(List.of(1))), "no room left on device 1");
        assertEquals(1, devices.untracked());
    }

    @Test
    void whatTheEngineHoldsWithoutDevicesStillCountsSoNoNodeIsOverAllocated() {
        start(new BestFitScorer(), 1, node("a", 2), node("b", 8));
        cluster.hold("a", new Resources(2000, 4_000, 1024)); // a restored job the devices never heard of
        submitAndRound(job("s", 1, 500));
        assertEquals("b", engine.runningJob("s").nodes().get(0), "best fit would pick a, whose totals are full");
        assertTrue(devices.hold(job("old", 1, 1000), List.of("b"), List.of()), "no devices named: best fit holds one");
        assertEquals(List.of(List.of(1)), devices.devicesOf("old"), "device 0 holds s's share, 1 is the first idle");
    }
}
