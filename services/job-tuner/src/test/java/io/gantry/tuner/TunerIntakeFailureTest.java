package io.gantry.tuner;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.tuner.service.JobTuner;
import io.gantry.tuner.service.TunerConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 22's poison submissions through the broker: each is dead-lettered with a reason naming what is wrong, the
 * consumer stays up (readiness 200), and the next submission is tuned.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class TunerIntakeFailureTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String DLQ = Topics.deadLetter("job-tuner");

    @Inject
    TunerConfig config;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private static JobSubmitted job(String id, String user) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, user, "test", null, 1,
                new ResourceAmounts(1000, 4000, 8192), null, null, 60.0, null);
    }

    /** The exact job of the issue: tasks and tuning.maxGpus = 2^31-1, model cifar10 with a batch size. */
    static String poisonJob(String jobId) {
        return "{\"type\":\"JobSubmitted\",\"eventId\":\"" + Events.newId() + "\",\"schemaVersion\":1,"
                + "\"occurredAt\":\"" + Instant.now() + "\",\"jobId\":\"" + jobId + "\",\"user\":\"alice\","
                + "\"model\":\"cifar10\",\"tasks\":2147483647,"
                + "\"perTask\":{\"gpuMilli\":1000,\"cpuMilli\":4000,\"memoryMib\":8192},\"batchSize\":256,"
                + "\"tuning\":{\"enabled\":true,\"maxGpus\":2147483647}}";
    }

    @Test
    void thePoisonJobIsDeadLetteredAndRejectedNamingItsFieldsAndTheNextJobIsTuned() {
        String poison = "poison-" + run;
        JobSubmitted next = job("after-poison-" + run, "alice");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, poison, poisonJob(poison));
            probe.send(Topics.JOBS_SUBMITTED, next.key(), EventCodec.encode(next));
            String reason = probe.await(DLQ, 1, WAIT, s -> s.key().equals(poison)).get(0).headers().get("dead-letter-reason");
            assertEquals("invalid event: tasks: must be at most 1024, was 2147483647; "
                    + "tuning.maxGpus: must be at most 8192, was 2147483647", reason);
            JobRejected rejected = EventCodec.decode(probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                    s -> s.key().equals(poison)).get(0).value(), JobRejected.class);
            assertEquals("tasks", rejected.field());
            probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals(next.key()));
        }
        given().get("/q/health/ready").then().statusCode(200);
        // Previewing the same body answers 400 with the field, not 500.
        given().contentType("application/json").body(poisonJob(poison)).post("/tuner/preview").then().statusCode(400)
                .body("field", org.hamcrest.Matchers.equalTo("tasks"));
    }

    @Test
    void anotherEventTypeAndHostileUsersAreDeadLetteredWithTheirReason() {
        JobCompleted completed = new JobCompleted(Events.newId(), 1, Instant.now(), "completed-" + run, "alice",
                List.of("n1"), new ResourceAmounts(1000, 1000, 1024), Instant.now(), 10);
        JobSubmitted hugeUser = job("huge-user-" + run, "u".repeat(100_000));
        JobSubmitted hostile = job("hostile-" + run, "../../etc/passwd\n<script>");
        JobSubmitted next = job("after-hostile-" + run, "alice");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (var e : List.of(completed, hugeUser, hostile, next)) {
                probe.send(Topics.JOBS_SUBMITTED, e.key(), EventCodec.encode(e));
            }
            List<TopicProbe.Seen> dead = probe.await(DLQ, 3, WAIT, s -> s.key().endsWith(run)
                    && !s.key().startsWith("after-"));
            for (TopicProbe.Seen d : dead) {
                String reason = d.headers().get("dead-letter-reason");
                if (d.key().equals(completed.key())) {
                    assertEquals("invalid event: type: expected JobSubmitted, got JobCompleted", reason);
                } else if (d.key().equals(hugeUser.key())) {
                    assertEquals("invalid event: user: must be at most 200 characters, was 100000", reason);
                } else {
                    assertTrue(reason.startsWith("invalid event: user: must be 1-200 of letters"), reason);
                }
            }
            probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals(next.key()));
            // The submitters are told on the lifecycle topic, without the name the contract refused; the wrong type is
            // a producer's mistake, not a submission, and is not rejected as a job.
            List<JobRejected> rejections = probe.readAll(Topics.JOBS_LIFECYCLE).stream()
                    .filter(s -> s.key().endsWith(run)).map(s -> EventCodec.decode(s.value(), JobRejected.class)).toList();
            assertEquals(Set.of(hugeUser.jobId(), hostile.jobId()), rejections.stream().map(JobRejected::jobId)
                    .collect(Collectors.toSet()));
            rejections.forEach(r -> assertNull(r.user(), r.toString()));
        }
    }

    /** Whatever the tuner throws on one submission, that submission is dead-lettered with the exception. */
    @Test
    void aSubmissionWhoseHandlingThrowsIsDeadLetteredWithTheExceptionAndTheNextIsTuned() {
        String boom = "boom-" + run;
        QuarkusMock.installMockForType(new JobTuner(config) {
            @Override
            public Decision decide(JobSubmitted job) {
                if (job.jobId().equals(boom)) {
                    throw new NegativeArraySizeException("-2147483648");
                }
                return super.decide(job);
            }
        }, JobTuner.class);
        JobSubmitted bad = job(boom, "alice");
        JobSubmitted next = job("after-boom-" + run, "alice");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, bad.key(), EventCodec.encode(bad));
            probe.send(Topics.JOBS_SUBMITTED, next.key(), EventCodec.encode(next));
            TopicProbe.Seen dead = probe.await(DLQ, 1, WAIT, s -> s.key().equals(boom)).get(0);
            String reason = dead.headers().get("dead-letter-reason");
            assertTrue(reason.startsWith("handling failed: NegativeArraySizeException: -2147483648 at "), reason);
            assertEquals(Topics.JOBS_SUBMITTED, dead.headers().get("dead-letter-topic"));
            JobTuned tuned = EventCodec.decode(probe.await(Topics.JOBS_TUNED, 1, WAIT,
                    s -> s.key().equals(next.key())).get(0).value(), JobTuned.class);
            assertEquals(JobTuner.tunedId(next.eventId()), tuned.eventId(), "the tuned event's id derives from the submission's");
        }
        given().get("/q/health/ready").then().statusCode(200);
    }
}
