package io.gantry.tuner;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.gantry.events.EventCodec;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /jobs} through the real broker: who may submit in whose name, the contract's 400s, the submission on
 * {@code gantry.jobs.submitted} keyed by its job id and tuned from there, and the per-user pending cap (3 under the
 * test profile) that a job's end frees again.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class JobSubmissionTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String ONE_GPU = "\"perTask\":{\"gpuMilli\":1000,\"cpuMilli\":4000,\"memoryMib\":8192}";
    /** More GPUs per task than the largest node: the tuner rejects it, which ends the job. */
    private static final String TOO_BIG = "\"perTask\":{\"gpuMilli\":16000,\"cpuMilli\":4000,\"memoryMib\":8192}";

    private static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String job(String jobId, String user, String perTask) {
        return "{\"jobId\":\"" + jobId + "\",\"user\":\"" + user + "\",\"jobName\":\"rest\",\"tasks\":1," + perTask
                + ",\"durationS\":60}";
    }

    @Test
    void onlyAUserMaySubmitAndOnlyInTheirOwnNameUnlessAnAdmin() {
        String body = job(id("who"), "alice", ONE_GPU);
        as(null).body(body).post("/jobs").then().statusCode(401);
        as(TestTokens.operator()).body(body).post("/jobs").then().statusCode(403);
        as(TestTokens.token("boss", List.of("admin"))).body(body).post("/jobs").then().statusCode(403);
        // bob's token, alice's job: refused with the field and the reason, and nothing is published.
        as(TestTokens.user("bob")).body(body).post("/jobs").then().statusCode(403)
                .body("field", equalTo("user"))
                .body("reason", containsString("must be your own user name ('bob')"));
        // An admin submits for anyone.
        String forAlice = id("admin-for-alice");
        as(TestTokens.admin()).body(job(forAlice, "alice", ONE_GPU)).post("/jobs").then().statusCode(202)
                .body("jobId", equalTo(forAlice)).body("user", equalTo("alice"));
    }

    @Test
    void aBodyTheContractRefusesIsA400NamingTheField() {
        String alice = TestTokens.user("alice");
        as(alice).body(job(id("zero"), "alice", ONE_GPU).replace("\"tasks\":1", "\"tasks\":0")).post("/jobs").then()
                .statusCode(400).body("field", equalTo("tasks")).body("reason", equalTo("must be at least 1, was 0"));
        as(alice).body(job("bad id!", "alice", ONE_GPU)).post("/jobs").then().statusCode(400)
                .body("field", equalTo("jobId")).body("reason", containsString("letters, digits"));
        as(alice).body("{\"jobId\":").post("/jobs").then().statusCode(400).body("reason", containsString("malformed JSON"));
        as(alice).body("[1,2]").post("/jobs").then().statusCode(400).body("field", equalTo("body"));
        as(alice).body(job(id("type"), "alice", ONE_GPU).replace("{\"jobId\"", "{\"type\":\"JobCompleted\",\"jobId\""))
                .post("/jobs").then().statusCode(400).body("field", equalTo("type"))
                .body("reason", equalTo("expected JobSubmitted, got JobCompleted"));
    }

    @Test
    void anAcceptedJobIsOnTheSubmissionsTopicKeyedByItsIdWithTheServicesEnvelopeAndIsTuned() {
        String jobId = id("rest-ok");
        String claimedEventId = UUID.randomUUID().toString();
        String body = job(jobId, "alice", ONE_GPU).replace("{\"jobId\"",
                "{\"eventId\":\"" + claimedEventId + "\",\"occurredAt\":\"2001-01-01T00:00:00Z\",\"jobId\"");
        String eventId = as(TestTokens.user("alice")).body(body).post("/jobs").then().statusCode(202)
                .body("jobId", equalTo(jobId)).body("user", equalTo("alice")).body("topic", equalTo(Topics.JOBS_SUBMITTED))
                .extract().path("eventId");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            JobSubmitted sent = EventCodec.decode(probe.await(Topics.JOBS_SUBMITTED, 1, WAIT,
                    s -> s.key().equals(jobId)).get(0).value(), JobSubmitted.class);
            assertEquals("alice", sent.user());
            assertEquals(eventId, sent.eventId());
            // The envelope is the service's: a submitter picks neither its event id nor the time it waits from.
            assertNotEquals(claimedEventId, sent.eventId());
            assertEquals(true, sent.occurredAt().isAfter(Instant.now().minusSeconds(120)), sent.toString());
            JobTuned tuned = EventCodec.decode(probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals(jobId)).get(0)
                    .value(), JobTuned.class);
            assertEquals("alice", tuned.user());
        }
        // The same id again while it is pending here: one id names one job.
        as(TestTokens.user("alice")).body(job(jobId, "alice", ONE_GPU)).post("/jobs").then().statusCode(409)
                .body("field", equalTo("jobId"));
    }

    @Test
    void theFourthPendingJobOfAUserIsRefusedUntilOneEnds() {
        String carol = "carol-" + UUID.randomUUID().toString().substring(0, 6);
        String token = TestTokens.user(carol);
        List<String> impossible = List.of(id("big"), id("big"), id("big"));
        impossible.forEach(j -> as(token).body(job(j, carol, TOO_BIG)).post("/jobs").then().statusCode(202));
        // Three pending (the tuner's rejections may not have been read back yet): a fourth is refused, or, if they
        // have already ended, accepted; either way the three rejections then free the cap.
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            List<TopicProbe.Seen> rejected = probe.await(Topics.JOBS_LIFECYCLE, 3, WAIT, s -> impossible.contains(s.key()));
            rejected.forEach(s -> assertEquals("perTask.gpuMilli", EventCodec.decode(s.value(), JobRejected.class).field()));
        }
        String dave = "dave-" + UUID.randomUUID().toString().substring(0, 6);
        String daveToken = TestTokens.user(dave);
        for (int i = 0; i < 3; i++) {
            as(daveToken).body(job(id("dave"), dave, ONE_GPU)).post("/jobs").then().statusCode(202);
        }
        // dave's three are tuned and wait (no scheduler here, so none ends): the fourth is refused, with the reason.
        as(daveToken).body(job(id("dave"), dave, ONE_GPU)).post("/jobs").then().statusCode(429)
                .body("field", equalTo("user"))
                .body("reason", containsString("has 3 pending jobs submitted here"));
        // carol's three ended (rejected by the tuner): once the tuner has read that, she may submit again.
        long deadline = System.nanoTime() + WAIT.toNanos();
        int status;
        do {
            status = as(token).body(job(id("after"), carol, ONE_GPU)).post("/jobs").then().extract().statusCode();
        } while (status == 429 && System.nanoTime() < deadline && sleep());
        assertEquals(202, status, "carol's ended jobs must no longer count as pending");
    }

    private static boolean sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }
}
