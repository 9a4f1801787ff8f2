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
    /**
     * Jobs of one GPU and more memory than any other test's node has, on a node of one GPU and one core: only this
     * node holds them, one at a time, and no other test's job fits it (the broker and the app are shared by the
     * module's tests, SchedulerPipelineTest's 16-GPU job must still fit nowhere).
     */
    private static final ResourceAmounts PER_TASK = new ResourceAmounts(1000, 1000, 500_000);
    private static final String NODE = "owner-node";

    private static JobTuned tuned(String id) {
        return new JobTuned(Events.newId(), 1, Instant.now(), id, "alice", id, null, Instant.now(), 1,
                PER_TASK, null, null, 600.0, null, List.of(), "test", false);
    }

    @Test
    void bobCannotReadAlicesPendingJob() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.CLUSTER_METRICS, NODE, node(true));
            // A job read before its node would be refused as fitting no node: the two topics are read apart.
            awaitUntil("the scheduler knows " + NODE, () -> as(TestTokens.operator()).get("/scheduler/nodes")
                    .jsonPath().getList("name").contains(NODE));
            probe.send(Topics.JOBS_TUNED, "owner-blocker", EventCodec.encode(tuned("owner-blocker")));
            probe.await(Topics.SCHEDULING_DECISIONS, 1, WAIT, s -> s.key().equals("owner-blocker"));
            probe.send(Topics.JOBS_TUNED, "owner-waiter", EventCodec.encode(tuned("owner-waiter")));
        }
        String alice = TestTokens.user("alice");
        awaitUntil("owner-waiter queued", () -> as(alice).get("/scheduler/queue/owner-waiter").statusCode() == 200);
        as(TestTokens.user("bob")).get("/scheduler/queue/owner-waiter").then().statusCode(404)
                .body("reason", equalTo("no pending job with this id"));
        as(TestTokens.operator()).get("/scheduler/queue/owner-waiter").then().statusCode(200);
        as(TestTokens.user("bob")).get("/scheduler/queue").then().statusCode(403);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.CLUSTER_METRICS, NODE, node(false)); // cordoned: it takes no later test's job
        }
    }

    private static String node(boolean schedulable) {
        return EventCodec.encode(new NodeMetrics(Events.newId(), 1, Instant.now(), NODE, PER_TASK, ResourceAmounts.ZERO,
                null, null, null, 0, schedulable, false, "test"));
    }

    private static void awaitUntil(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + WAIT);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
