package io.gantry.scheduler;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobRejected;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
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
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class SchedulerPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static JobTuned tuned(String id, long gpuMilli) {
        return new JobTuned(Events.newId(), 1, Instant.now(), id, "alice", id, null, Instant.now(), 1,
                new ResourceAmounts(gpuMilli, 1000, 1024), null, null, 5.0, null, List.of(), "test");
    }

    @Test
    void decidesOnTheRealBrokerRejectsTheImpossibleAndDeadLettersBadEvents() {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.CLUSTER_METRICS, "n1", EventCodec.encode(new NodeMetrics(Events.newId(), 1, Instant.now(),
                    "n1", new ResourceAmounts(8000, 96000, 393216), ResourceAmounts.ZERO, null, null, null, 0, true,
                    false, "test")));
            probe.send(Topics.JOBS_TUNED, "bad-json", "not json at all");
            probe.send(Topics.JOBS_TUNED, "bad-field", EventCodec.encode(tuned("bad-field", 1000))
                    .replace("\"tasks\":1", "\"tasks\":-3"));
            probe.send(Topics.JOBS_TUNED, "fits", EventCodec.encode(tuned("fits", 2000)));
            probe.send(Topics.JOBS_TUNED, "huge", EventCodec.encode(tuned("huge", 16000)));

            var dead = probe.await(Topics.deadLetter("sac-scheduler"), 2, WAIT, s -> s.key().startsWith("bad-"));
            assertTrue(dead.get(0).headers().get("dead-letter-reason").contains("malformed JSON"));
            assertTrue(dead.get(1).headers().get("dead-letter-reason").contains("tasks"));

            SchedulingDecision d = EventCodec.decode(probe.await(Topics.SCHEDULING_DECISIONS, 1, WAIT,
                    s -> s.key().equals("fits")).get(0).value(), SchedulingDecision.class);
            assertEquals(List.of("n1"), d.nodes());
            assertEquals("sac", d.policy(), "the default policy");

            JobRejected r = EventCodec.decode(probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                    s -> s.key().equals("huge")).get(0).value(), JobRejected.class);
            assertEquals("sac-scheduler", r.stage());
        }
        given().get("/scheduler/queue").then().statusCode(200).body("policy", equalTo("sac"));
        given().get("/scheduler/queue/not-pending").then().statusCode(404);
        given().get("/q/health/ready").then().statusCode(200);
    }
}
