package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import io.gantry.scheduling.gpushare.DeviceCluster;
import io.gantry.scheduling.gpushare.DevicePlacement;
import io.gantry.scheduling.gpushare.GpuPod;
import io.gantry.scheduling.gpushare.GpuSharePolicies;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import io.gantry.scheduling.gpushare.ScoringPlacer;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's live bar end to end: GPU-sharing pods submitted on {@code gantry.jobs.submitted} go through the tuner,
 * the scheduler (FGD per device, {@code GANTRY_SCHEDULER_GPU_PLACEMENT=fgd}) and the dispatcher's simulated cluster
 * built from the same node list, and each one lands on the devices the core plugin chooses: the test runs
 * scheduling-core's {@link ScoringPlacer} with FGD over the same node list and the same tuned pods in the same order,
 * and compares its choice with the decision's {@code gpuDevices} and with the devices the dispatcher reports the pod
 * on ({@code GET /simulated-cluster/nodes}). Pods arrive one at a time (each waits for its decision) and run for a
 * simulated day, so every placement sees the cluster the previous ones left.
 */
class GpuSharingEndToEndTest {

    /** Two nodes of the trace's kinds, in its node-list format: one of 8 V100s, one of 2 P100s. */
    private static final String NODES = """
            sn,cpu_milli,memory_mib,gpu,model
            e2e-node-v100,96000,786432,8,V100M16
            e2e-node-p100,64000,262144,2,P100
            """;
    private static final long SEED = 3;
    /** GPU-milli per pod: fractions of one device, and two whole GPUs. */
    private static final long[] SHARES = {600, 300, 500, 2000, 700, 250, 450, 900};

    @Test
    void fractionalPodsLandOnTheDevicesTheCorePluginChoseThroughTheWholePipeline() throws Exception {
        try (GantryProcesses system = new GantryProcesses()) {
            Path nodes = system.logs().resolve("gpu-nodes.csv");
            Files.writeString(nodes, NODES);
            Path targetPods = OpenbGpuFiles.traceDir().resolve("openb_pod_list_default.csv");
            system.startBroker();
            system.startServices(Map.of("GANTRY_SIMULATED_CLUSTER_NODES_FILE", nodes.toString(),
                    "GANTRY_SIMULATED_CLUSTER_SPEEDUP", "1000",
                    "GANTRY_SCHEDULER_GPU_PLACEMENT", "fgd",
                    "GANTRY_SCHEDULER_GPU_NODES_FILE", nodes.toString(),
                    "GANTRY_SCHEDULER_GPU_TARGET_PODS", targetPods.toString(),
                    "GANTRY_SCHEDULER_GPU_PLACEMENT_SEED", String.valueOf(SEED)));
            GantryProcesses.await(Duration.ofSeconds(60), "the scheduler to know both nodes", () -> {
                String known = system.get("sac-scheduler", "/scheduler/nodes");
                return known.contains("e2e-node-v100") && known.contains("e2e-node-p100");
            });

            DeviceCluster cluster = new DeviceCluster(OpenbGpuFiles.loadNodesOrExplain(nodes, "the test's node list"));
            ScoringPlacer plugin = new ScoringPlacer(cluster, GpuSharePolicies.create("fgd",
                    OpenbGpuFiles.loadPodsOrExplain(targetPods, "FGD's target workload"), SEED),
                    new SplittableRandom(SEED));
            try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
                for (int i = 0; i < SHARES.length; i++) {
                    String id = "gpushare-e2e-" + i;
                    JobSubmitted job = new JobSubmitted(Events.newId(), 1, Instant.now(), id, "alice", id, null, 1,
                            new ResourceAmounts(SHARES[i], 1000, 1024), null, null, 86_400.0, null);
                    probe.send(Topics.JOBS_SUBMITTED, id, EventCodec.encode(job));
                    SchedulingDecision d = EventCodec.decode(probe.await(Topics.SCHEDULING_DECISIONS, 1,
                            Duration.ofSeconds(60), s -> s.key().equals(id)).get(0).value(), SchedulingDecision.class);
                    // The plugin sees the pod as the scheduler did: the tuner's request, not the submitted one.
                    JobTuned tuned = EventCodec.decode(probe.await(Topics.JOBS_TUNED, 1, Duration.ofSeconds(10),
                            s -> s.key().equals(id)).get(0).value(), JobTuned.class);
                    ScoringPlacer.Placement want = plugin.place(pod(id, tuned.perTask()));
                    assertNotNull(want, id + " fits the cluster");
                    List<Integer> devices = Arrays.stream(want.devices()).boxed().toList();
                    String where = id + " (" + tuned.perTask().gpuMilli() + " GPU-milli)";
                    assertEquals(List.of(cluster.node(want.node()).name()), d.nodes(), where + ": FGD's node");
                    assertEquals(List.of(devices), d.gpuDevices(), where + ": FGD's devices");
                    assertEquals(devices, dispatcherDevices(system, d.nodes().get(0), id),
                            where + ": the dispatcher runs it on the devices decided");
                }
            }
        }
    }

    /** The pod as the live scheduler hands it to the plugin: scheduling-core's one rule for a task's share. */
    private static GpuPod pod(String id, ResourceAmounts perTask) {
        return DevicePlacement.pod(new JobRequest(id, "alice", 1,
                new Resources(perTask.gpuMilli(), perTask.cpuMilli(), perTask.memoryMib()), 0, 0, 0, 0));
    }

    /** The devices the simulated cluster runs the job's pod (its only task, {@code <job>-0}) on, once it runs. */
    private static List<Integer> dispatcherDevices(GantryProcesses system, String node, String job) throws Exception {
        AtomicReference<List<Integer>> found = new AtomicReference<>();
        GantryProcesses.await(Duration.ofSeconds(30), job + " running on " + node, () -> {
            JsonNode view = EventCodec.mapper().readTree(system.get("pod-dispatcher", "/simulated-cluster/nodes"));
            for (JsonNode n : view.path("nodes")) {
                JsonNode devices = n.path("podGpuDevices").path(job + "-0");
                if (n.path("name").asText().equals(node) && devices.isArray()) {
                    List<Integer> d = new ArrayList<>();
                    devices.forEach(x -> d.add(x.asInt()));
                    found.set(d);
                    return true;
                }
            }
            return false;
        });
        return found.get();
    }
}
