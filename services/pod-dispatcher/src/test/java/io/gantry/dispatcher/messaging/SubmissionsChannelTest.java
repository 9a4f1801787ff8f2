package io.gantry.dispatcher.messaging;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The {@code submissions} channel is Kubernetes mode's: in simulated mode it stays paused, the admin API refuses to
 * resume (or pause) it with the reason, and readiness stays up with submissions on the topic.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class SubmissionsChannelTest {

    @Test
    void inSimulatedModeTheSubmissionsChannelCannotBeSwitchedAndReadinessStaysUp() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (int i = 0; i < 3; i++) {
                JobSubmitted j = new JobSubmitted(Events.newId(), 1, Instant.now(), "sub-" + i, "alice", "x", null, 1,
                        new ResourceAmounts(1000, 1000, 1024), null, null, 60.0, null);
                probe.send(Topics.JOBS_SUBMITTED, j.key(), EventCodec.encode(j));
            }
        }
        for (String action : new String[] {"resume", "pause"}) {
            given().post("/admin/channels/submissions/" + action).then().statusCode(409)
                    .body("channel", equalTo("submissions")).body("paused", equalTo(true))
                    .body("reason", containsString("consumed only with gantry.dispatcher.cluster=kubernetes"));
        }
        given().post("/admin/channels/no-such-channel/resume").then().statusCode(404);
        // The channel the mode does consume can still be switched.
        given().post("/admin/channels/decisions/pause").then().statusCode(200).body("paused", equalTo(true));
        given().post("/admin/channels/decisions/resume").then().statusCode(200).body("paused", equalTo(false));
        Thread.sleep(2_000);
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name.contains('Messaging') }.data.submissions", containsString("[OK]"));
        given().get("/admin/status").then().statusCode(200).body("channels.submissions", equalTo(null));
    }
}
