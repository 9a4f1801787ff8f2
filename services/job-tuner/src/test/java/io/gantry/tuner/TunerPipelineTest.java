package io.gantry.tuner;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
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
class TunerPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static JobSubmitted job(String id, int tasks) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, "alice", "test", null, tasks,
                new ResourceAmounts(1000, 4000, 8192), null, null, 60.0, null);
    }

    @Test
    void malformedAndInvalidEventsAreDeadLetteredWithTheirReasonAndTheNextGoodOneIsTuned() {
        String dlq = Topics.deadLetter("job-tuner");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, "bad-1", "{\"type\":\"JobSubmitted\",\"jobId\":");
            probe.send(Topics.JOBS_SUBMITTED, "bad-2", EventCodec.encode(job("bad-2", 0)));
            probe.send(Topics.JOBS_SUBMITTED, "good-1", EventCodec.encode(job("good-1", 2)));

            List<TopicProbe.Seen> dead = probe.await(dlq, 2, WAIT, s -> s.key().startsWith("bad-"));
            assertTrue(dead.get(0).headers().get("dead-letter-reason").contains("malformed JSON"), dead.get(0).toString());
            assertTrue(dead.get(1).headers().get("dead-letter-reason").contains("tasks: must be at least 1"),
                    dead.get(1).toString());
            assertEquals(Topics.JOBS_SUBMITTED, dead.get(1).headers().get("dead-letter-topic"));

            TopicProbe.Seen out = probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals("good-1")).get(0);
            JobTuned tuned = EventCodec.decode(out.value(), JobTuned.class);
            assertEquals(2, tuned.tasks());
            assertTrue(tuned.summary().startsWith("passed through unchanged"), tuned.summary());
        }
        given().get("/admin/status").then().statusCode(200)
                .body("channels.submitted.deadLettered", greaterThanOrEqualTo(2))
                .body("channels.tuned.produced", greaterThanOrEqualTo(1));
    }

    @Test
    void aRedeliveredEventIsTunedOnce() {
        JobSubmitted job = job("dup-1", 1);
        String json = EventCodec.encode(job);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, "dup-1", json);
            probe.send(Topics.JOBS_SUBMITTED, "dup-1", json);
            probe.send(Topics.JOBS_SUBMITTED, "after-dup", EventCodec.encode(job("after-dup", 1)));
            // Once the later job is out, the duplicate has certainly been consumed.
            probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals("after-dup"));
            long copies = probe.readAll(Topics.JOBS_TUNED).stream().filter(s -> s.key().equals("dup-1")).count();
            assertEquals(1, copies, "a redelivered submission must be tuned exactly once");
        }
    }

    @Test
    void healthAndMetricsAndOpenApiAreServed() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
        given().get("/q/openapi").then().statusCode(200);
    }
}
