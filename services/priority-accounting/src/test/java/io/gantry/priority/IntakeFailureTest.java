package io.gantry.priority;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.priority.messaging.LedgerWriter;
import io.gantry.priority.service.AccountingStore;
import io.gantry.priority.service.PriorityBook;
import io.gantry.service.support.EventIntake;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/**
 * A record is its own failure: whatever goes wrong with one (it breaks the contract, or its handling throws) sends it
 * to {@code gantry.dlq.priority-accounting} with the reason, and the next record is applied.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class IntakeFailureTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String DLQ = Topics.deadLetter("priority-accounting");

    @Inject
    LedgerWriter writer;
    @Inject
    AccountingStore store;
    @Inject
    PriorityBook book;
    @Inject
    EventIntake intake;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private static JobCompleted completed(String jobId, String user) {
        Instant at = Instant.now();
        return new JobCompleted(Events.newId(), 1, at, jobId, user, List.of("n1"), new ResourceAmounts(1000, 1000, 1024),
                at.minusSeconds(60), 10);
    }

    private static void send(TopicProbe probe, GantryEvent e) {
        probe.send(Topics.JOBS_LIFECYCLE, e.key(), EventCodec.encode(e));
    }

    @Test
    void aRecordWhoseHandlingThrowsIsDeadLetteredWithTheExceptionAndTheNextIsApplied() throws Exception {
        LedgerWriter real = ClientProxy.unwrap(writer);
        String poison = "boom-" + run;
        QuarkusMock.installMockForType(new LedgerWriter(store, book, intake) {
            @Override
            public CompletionStage<Void> write(AccountingStore.Input input, String channel, Message<String> message) {
                if (input.event() instanceof JobCompleted c && c.jobId().equals(poison)) {
                    throw new IllegalStateException("the ledger cannot take " + poison);
                }
                return real.write(input, channel, message);
            }
        }, LedgerWriter.class);
        JobCompleted bad = completed(poison, "alice-" + run);
        JobCompleted next = completed("next-" + run, "alice-" + run);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            send(probe, bad);
            send(probe, next);
            TopicProbe.Seen dead = probe.await(DLQ, 1, WAIT, s -> s.key().equals(poison)).get(0);
            String reason = dead.headers().get("dead-letter-reason");
            assertTrue(reason.startsWith("handling failed: IllegalStateException: the ledger cannot take " + poison),
                    reason);
            assertEquals(Topics.JOBS_LIFECYCLE, dead.headers().get("dead-letter-topic"));
            LedgerWriterTest.awaitProcessed(next);
        }
        given().get("/q/health/ready").then().statusCode(200);
    }

    /** The 100,000-character names made the database fail ("Could not commit transaction"): now the contract. */
    @Test
    void hugeAndHostileNamesAreDeadLetteredByTheContractWithTheirField() throws Exception {
        String hugeUser = "u".repeat(100_000);
        String hostile = "../../etc/passwd\n<script>";
        JobCompleted byHugeUser = completed("huge-user-" + run, hugeUser);
        JobCompleted hugeJob = completed("j".repeat(100_000), "alice-" + run);
        JobCompleted byHostile = completed("hostile-" + run, hostile);
        JobCompleted next = completed("after-names-" + run, "alice-" + run);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (JobCompleted e : List.of(byHugeUser, hugeJob, byHostile, next)) {
                send(probe, e);
            }
            List<TopicProbe.Seen> dead = probe.await(DLQ, 3, WAIT, s -> s.value().contains(byHugeUser.eventId())
                    || s.value().contains(hugeJob.eventId()) || s.value().contains(byHostile.eventId()));
            for (TopicProbe.Seen d : dead) {
                String reason = d.headers().get("dead-letter-reason");
                if (d.value().contains(byHugeUser.eventId())) {
                    assertEquals("invalid event: user: must be at most 200 characters, was 100000", reason);
                } else if (d.value().contains(hugeJob.eventId())) {
                    assertEquals("invalid event: jobId: must be at most 317 characters, was 100000", reason);
                } else {
                    assertTrue(reason.startsWith("invalid event: user: must be 1-200 of letters"), reason);
                }
            }
            LedgerWriterTest.awaitProcessed(next);
        }
        given().get("/users").then().statusCode(200).body("name", not(hasItem(hostile)));
    }
}
