package io.gantry.tuner;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobSubmitted;
import io.gantry.events.Limits;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Inputs too large to take: a request body past max-body-size is a 413 with a reason, an event past the bound a dead letter. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class OversizedInputTest {

    @Test
    void aBodyLargerThanTheLimitIsA413WithAJsonReasonBeforeAnyoneIsAsked() {
        String huge = "{\"jobName\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        for (String token : new String[] {TestTokens.user("alice"), null}) {
            as(token).body(huge).post("/jobs").then().statusCode(413).contentType("application/json")
                    .body("field", equalTo("body"))
                    .body("reason", containsString("more than the 1048576 a request to this service may have"));
        }
        as(TestTokens.user("alice")).body(huge).post("/tuner/preview").then().statusCode(413);
    }

    @Test
    void anEventLargerThanTheBoundIsDeadLetteredWithItsReasonAndTheNextIsTuned() {
        JobSubmitted big = new JobSubmitted(Events.newId(), 1, Instant.now(), "oversized-1", "alice", "x".repeat(600_000),
                null, 1, new ResourceAmounts(1000, 4000, 8192), null, null, 60.0, null);
        JobSubmitted next = new JobSubmitted(Events.newId(), 1, Instant.now(), "after-oversized", "alice", "small", null, 1,
                new ResourceAmounts(1000, 4000, 8192), null, null, 60.0, null);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, big.jobId(), EventCodec.encode(big));
            probe.send(Topics.JOBS_SUBMITTED, next.jobId(), EventCodec.encode(next));
            TopicProbe.Seen dead = probe.await(Topics.deadLetter("job-tuner"), 1, Duration.ofSeconds(30),
                    s -> s.key().equals(big.jobId())).get(0);
            String reason = dead.headers().get("dead-letter-reason");
            assertTrue(reason.contains("more than the " + Limits.MAX_EVENT_LENGTH + " an event may have"), reason);
            assertEquals(Topics.JOBS_SUBMITTED, dead.headers().get("dead-letter-topic"));
            probe.await(Topics.JOBS_TUNED, 1, Duration.ofSeconds(30), s -> s.key().equals(next.jobId()));
        }
    }
}
