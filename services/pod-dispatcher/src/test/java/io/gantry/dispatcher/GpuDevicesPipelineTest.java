package io.gantry.dispatcher;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Limits;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.security.TestSecurity;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's bar, the dispatcher's half, on a real broker: the simulated cluster is the nodes of a node list in the
 * trace's format ({@code gantry.simulated-cluster.nodes-file}, what {@code ./gantry up --nodes-file} sets), and a
 * decision's GPU devices are where its pods sit ({@code GET /simulated-cluster/nodes}, {@code podGpuDevices}).
 * (sac-scheduler's {@code GpuSharingPipelineTest} shows the devices in the decision are the core plugin's.)
 */
@QuarkusTest
@TestProfile(GpuDevicesPipelineTest.NodeList.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class GpuDevicesPipelineTest {

    private static SchedulingDecision decision(String jobId, List<String> nodes, ResourceAmounts perTask,
                                               List<List<Integer>> devices) {
        return new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "alice", nodes, perTask,
                (double) Limits.MAX_DURATION_S, Instant.parse("2026-01-02T03:04:05Z"), "sac", "sac-0", 1, List.of(),
                devices);
    }

    @Test
    @TestSecurity(user = "root", roles = {"admin", "operator", "user"})
    void theNodeListIsTheClusterAndEachPodSitsOnTheDevicesItsDecisionChose() {
        JsonPath before = given().get("/simulated-cluster/nodes").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("openb-node-0001", "openb-node-0002"), before.getList("nodes.name"));
        assertEquals(8000, before.getInt("nodes.find { it.name == 'openb-node-0002' }.capacity.gpuMilli"));
        assertEquals(786432, before.getInt("nodes.find { it.name == 'openb-node-0002' }.capacity.memoryMib"));
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.SCHEDULING_DECISIONS, "share-a", EventCodec.encode(decision("share-a",
                    List.of("openb-node-0002"), new ResourceAmounts(300, 4000, 1024), List.of(List.of(5)))));
            probe.send(Topics.SCHEDULING_DECISIONS, "whole-b", EventCodec.encode(decision("whole-b",
                    List.of("openb-node-0001"), new ResourceAmounts(2000, 4000, 1024), List.of(List.of(0, 1)))));
            for (String job : List.of("share-a", "whole-b")) {
                LifecycleEvent e = EventCodec.decode(probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                        s -> s.key().equals(job)).get(0).value(), LifecycleEvent.class);
                assertInstanceOf(JobStarted.class, e, job);
            }
        }
        JsonPath after = given().get("/simulated-cluster/nodes").then().statusCode(200).extract().jsonPath();
        assertEquals(Map.of("share-a-0", List.of(5)),
                after.getMap("nodes.find { it.name == 'openb-node-0002' }.podGpuDevices"));
        assertEquals(Map.of("whole-b-0", List.of(0, 1)),
                after.getMap("nodes.find { it.name == 'openb-node-0001' }.podGpuDevices"));
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The settings this test runs the service with. */
    public static class NodeList implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gantry.simulated-cluster.nodes-file", "src/test/resources/gpu-nodes.csv");
        }
    }
}
