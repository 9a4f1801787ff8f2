package io.gantry.scheduler;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobFailed;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
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
 * A queued job cancelled by its owner through the real broker: it leaves the queue and ends once with JobFailed
 * "cancelled"; another user's request for it changes nothing; the running job it waited behind is left alone.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class CancellationPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Larger than any node of the other tests of this module (8 GPUs), so only this test's node holds these jobs. */
    private static final long GPU_MILLI = 12_000;

    /** Not preemptible: the learned policy may otherwise stop the blocker to place the waiter. */
    private static JobTuned tuned(String id) {
        return new JobTuned(Events.newId(), 1, Instant.now(), id, "alice", id, null, Instant.now(), 1,
                new ResourceAmounts(GPU_MILLI, 1000, 1024), null, null, 600.0, null, List.of(), "test", false);
    }

    private static JobCancelRequested cancel(String id, String user) {
        return new JobCancelRequested(Events.newId(), 1, Instant.now(), id, user, "test");
    }

    @Test
    void aQueuedJobCancelledByItsOwnerEndsOnceWithJobFailedCancelled() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.CLUSTER_METRICS, "cancel-node", EventCodec.encode(new NodeMetrics(Events.newId(), 1,
                    Instant.now(), "cancel-node", new ResourceAmounts(GPU_MILLI, 96000, 393216), ResourceAmounts.ZERO,
                    null, null, null, 0, true, false, "test")));
            probe.send(Topics.JOBS_TUNED, "cancel-blocker", EventCodec.encode(tuned("cancel-blocker")));
            probe.await(Topics.SCHEDULING_DECISIONS, 1, WAIT, s -> s.key().equals("cancel-blocker"));
            probe.send(Topics.JOBS_TUNED, "cancel-waiter", EventCodec.encode(tuned("cancel-waiter")));
            awaitPending("cancel-waiter");
            given().get("/scheduler/queue/cancel-waiter").then().statusCode(200)
                    .body("code", equalTo("insufficient_gpu")).body("reason", containsString("needs 12 GPUs"));

            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-waiter", EventCodec.encode(cancel("cancel-waiter", "mallory")));
            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-waiter", EventCodec.encode(cancel("cancel-waiter", "alice")));
            JobFailed ended = EventCodec.decode(probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                    s -> s.key().equals("cancel-waiter")).get(0).value(), JobFailed.class);
            assertEquals(JobCancelRequested.REASON, ended.reason());
            assertEquals("alice", ended.user());
            given().get("/scheduler/queue/cancel-waiter").then().statusCode(404);

            // A second request, and one for the running blocker, end nothing more: the blocker is the dispatcher's.
            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-waiter", EventCodec.encode(cancel("cancel-waiter", "alice")));
            probe.send(Topics.JOBS_CANCELLATIONS, "cancel-blocker", EventCodec.encode(cancel("cancel-blocker", "alice")));
            awaitConsumed(4);
            assertEquals(1, probe.readAll(Topics.JOBS_LIFECYCLE).stream()
                    .filter(s -> s.key().startsWith("cancel-")).count());
            assertEquals(0, probe.readAll(Topics.SCHEDULING_DECISIONS).stream()
                    .filter(s -> s.key().equals("cancel-waiter")).count());
        }
    }

    private static void awaitPending(String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (given().get("/scheduler/queue/" + jobId).statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(jobId + " never queued: " + given().get("/scheduler/queue").asString()
                        + " " + given().get("/scheduler/queue/" + jobId).asString());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static void awaitConsumed(int n) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Integer consumed = given().get("/admin/status").then().extract().path("channels.cancellations.consumed");
            if (consumed != null && consumed >= n) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("the cancellations channel did not consume " + n + " requests");
    }
}
