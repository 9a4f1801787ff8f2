package io.gantry.dispatcher;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobFailed;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Owners' cancel requests through the real broker: a running stint stops and its job ends once with JobFailed
 * "cancelled" (its resources freed); another user's request changes nothing; a request that arrives before the job's
 * decision makes the dispatcher refuse the decision with the same reason, so the job never starts.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class CancellationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static SchedulingDecision decision(String jobId) {
        return new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "alice", List.of("sim-node-03"),
                new ResourceAmounts(4000, 2000, 4096), Limits.MAX_DURATION_S, Instant.now(), "kube-default", "v1");
    }

    private static String cancel(String jobId, String user) {
        return EventCodec.encode(new JobCancelRequested(Events.newId(), 1, Instant.now(), jobId, user, "test"));
    }

    private static List<LifecycleEvent> lifecycleOf(TopicProbe probe, String jobId, int count) {
        return probe.await(Topics.JOBS_LIFECYCLE, count, WAIT, s -> s.key().equals(jobId)).stream()
                .map(s -> EventCodec.decode(s.value(), LifecycleEvent.class)).toList();
    }

    @Test
    void aRunningJobCancelledByItsOwnerStopsAndEndsOnce() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.SCHEDULING_DECISIONS, "cancel-run", EventCodec.encode(decision("cancel-run")));
            assertInstanceOf(JobStarted.class, lifecycleOf(probe, "cancel-run", 1).get(0));

            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-run", cancel("cancel-run", "mallory"));
            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-run", cancel("cancel-run", "alice"));
            JobFailed failed = assertInstanceOf(JobFailed.class, lifecycleOf(probe, "cancel-run", 2).get(1));
            assertEquals(JobCancelRequested.REASON, failed.reason());
            assertEquals(List.of("sim-node-03"), failed.nodes());

            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-run", cancel("cancel-run", "alice"));
            awaitConsumed(3);
            assertEquals(2, probe.readAll(Topics.JOBS_LIFECYCLE).stream().filter(s -> s.key().equals("cancel-run"))
                    .count(), "started and failed, nothing more");
            // Its 4 GPUs are free again on its node.
            Integer allocated = given().get("/simulated-cluster/nodes").then().statusCode(200).extract()
                    .path("nodes.find { it.name == 'sim-node-03' }.allocated.gpuMilli");
            assertEquals(0, allocated);
        }
    }

    @Test
    void aRequestBeforeTheDecisionRefusesTheDecision() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            int before = consumed();
            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-early", cancel("cancel-early", "alice"));
            awaitConsumed(before + 1);
            probe.send(Topics.SCHEDULING_DECISIONS, "cancel-early", EventCodec.encode(decision("cancel-early")));
            List<LifecycleEvent> events = lifecycleOf(probe, "cancel-early", 1);
            JobFailed failed = assertInstanceOf(JobFailed.class, events.get(0));
            assertEquals(JobCancelRequested.REASON, failed.reason());
        }
    }

    private static int consumed() {
        Integer n = given().get("/admin/status").then().extract().path("channels.cancellations.consumed");
        return n == null ? 0 : n;
    }

    private static void awaitConsumed(int n) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (consumed() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the cancellations channel did not consume " + n + " requests");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
