package io.gantry.scheduler;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static org.hamcrest.Matchers.equalTo;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Bob's token asking why alice's pending job waits gets the 404 of an unknown job (a 403 would confirm the id exists);
 * alice's own token and an operator's get the answer.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PendingJobOwnershipTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Larger than any other test's node (8 and 12 GPUs), so only this test's node holds these jobs. */
    private static final long GPU_MILLI = 16_000;

    private static JobTuned tuned(String id) {
        return new JobTuned(Events.newId(), 1, Instant.now(), id, "alice", id, null, Instant.now(), 1,
                new ResourceAmounts(GPU_MILLI, 1000, 1024), null, null, 600.0, null, List.of(), "test", false);
    }

    @Test
    void bobCannotReadAlicesPendingJob() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.CLUSTER_METRICS, "owner-node", EventCodec.encode(new NodeMetrics(Events.newId(), 1,
                    Instant.now(), "owner-node", new ResourceAmounts(GPU_MILLI, 96000, 393216), ResourceAmounts.ZERO,
                    null, null, null, 0, true, false, "test")));
            probe.send(Topics.JOBS_TUNED, "owner-blocker", EventCodec.encode(tuned("owner-blocker")));
            probe.await(Topics.SCHEDULING_DECISIONS, 1, WAIT, s -> s.key().equals("owner-blocker"));
            probe.send(Topics.JOBS_TUNED, "owner-waiter", EventCodec.encode(tuned("owner-waiter")));
        }
        String alice = TestTokens.user("alice");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (as(alice).get("/scheduler/queue/owner-waiter").statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("owner-waiter never queued");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        as(TestTokens.user("bob")).get("/scheduler/queue/owner-waiter").then().statusCode(404)
                .body("reason", equalTo("no pending job with this id"));
        as(TestTokens.operator()).get("/scheduler/queue/owner-waiter").then().statusCode(200);
        as(TestTokens.user("bob")).get("/scheduler/queue").then().statusCode(403);
    }
}
