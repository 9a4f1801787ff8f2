package io.gantry.scheduler;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.scheduling.gpushare.DeviceCluster;
import io.gantry.scheduling.gpushare.GpuNode;
import io.gantry.scheduling.gpushare.GpuPod;
import io.gantry.scheduling.gpushare.GpuSharePolicies;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import io.gantry.scheduling.gpushare.PodShape;
import io.gantry.scheduling.gpushare.ScoringPlacer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.security.TestSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's bar, the scheduler's half: fractional pods placed live through the real broker land on the devices the
 * core plugin chooses. The scheduler runs FGD per device; the test runs the same plugin (scheduling-core's
 * {@link ScoringPlacer} on a {@link DeviceCluster} of the same node) over the same arrivals and compares each
 * decision's {@code gpuDevices} with it. Only this test's node admits its pods (1,000 cores, and 512 MiB that no
 * other test's job fits in), so the jobs other tests of this module leave on the shared broker change nothing here.
 */
@QuarkusTest
@TestProfile(GpuSharingPipelineTest.Fgd.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class GpuSharingPipelineTest {

    private static final String NODE = "gpu-share-node";
    private static final Path TARGET = Path.of("src/test/resources/gpu-target-pods.csv");
    private static final long SEED = 5;
    private static final long[] SHARES = {600, 300, 500, 700, 2000, 250};

    private static JobTuned tuned(String id, long gpuMilli) {
        return new JobTuned(Events.newId(), 1, Instant.now(), id, "alice", id, null, Instant.now(), 1,
                new ResourceAmounts(gpuMilli, 100_000, 0), null, null, 3600.0, null, List.of(), "test", false);
    }

    @Test
    @TestSecurity(user = "root", roles = {"admin", "operator", "user"})
    void fractionalPodsLandOnTheDevicesTheCorePluginChooses() {
        // The plugin as the simulator runs it, on the node as the scheduler sees it.
        DeviceCluster sim = new DeviceCluster(List.of(new GpuNode(NODE, 1_000_000, 512, 8, "V100M16")));
        ScoringPlacer plugin = new ScoringPlacer(sim, GpuSharePolicies.create("fgd",
                OpenbGpuFiles.loadPods(TARGET, new ArrayList<>()), SEED), new SplittableRandom(SEED));
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.CLUSTER_METRICS, NODE, EventCodec.encode(new NodeMetrics(Events.newId(), 1, Instant.now(),
                    NODE, new ResourceAmounts(8000, 1_000_000, 512), ResourceAmounts.ZERO, null, null, null, 0, true,
                    false, "test")));
            awaitNode();
            for (int i = 0; i < SHARES.length; i++) {
                String id = "gpushare-" + i;
                probe.send(Topics.JOBS_TUNED, id, EventCodec.encode(tuned(id, SHARES[i])));
                SchedulingDecision d = EventCodec.decode(probe.await(Topics.SCHEDULING_DECISIONS, 1, WAIT,
                        s -> s.key().equals(id)).get(0).value(), SchedulingDecision.class);
                long g = SHARES[i];
                PodShape shape = g < 1000 ? new PodShape(100_000, 1, (int) g, "") : new PodShape(100_000, (int) g / 1000,
                        1000, "");
                ScoringPlacer.Placement want = plugin.place(new GpuPod(id, shape, 0));
                assertNotNull(want, id + " fits the simulated node");
                assertEquals(List.of(NODE), d.nodes(), id);
                assertEquals(List.of(Arrays.stream(want.devices()).boxed().toList()), d.gpuDevices(),
                        id + " (" + g + " milli) is on the devices FGD chose");
            }
        }
        assertEquals(8000 - Arrays.stream(SHARES).sum(), sum(sim));
    }

    /** The job would be refused as fitting no node if it came before the node. */
    private static void awaitNode() {
        long until = System.nanoTime() + WAIT.toNanos();
        while (!given().get("/scheduler/nodes").then().statusCode(200).extract().jsonPath().getList("name")
                .contains(NODE)) {
            if (System.nanoTime() > until) {
                throw new AssertionError("the scheduler never heard of " + NODE);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static long sum(DeviceCluster c) {
        long s = 0;
        for (int d = 0; d < 8; d++) {
            s += c.gpuFree(0, d);
        }
        return s;
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The settings this test runs the service with. */
    public static class Fgd implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gantry.scheduler.gpu-placement", "fgd",
                    "gantry.scheduler.gpu-target-pods", TARGET.toString(),
                    "gantry.scheduler.gpu-nodes-file", "src/test/resources/gpu-nodes.csv",
                    "gantry.scheduler.gpu-placement-seed", String.valueOf(SEED));
        }
    }
}
