package io.gantry.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.priority.persistence.JobRun;
import io.gantry.priority.persistence.ProcessedEvent;
import io.gantry.priority.persistence.UsageInterval;
import io.gantry.priority.service.AccountingStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Events are written in batches, one transaction each: an event the database refuses must fail alone (dead-lettered
 * with the database's reason) while the events batched with it are applied.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class LedgerWriterTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    AccountingStore store;

    private static JobCompleted completed(String jobId, String user) {
        Instant at = Instant.now();
        return new JobCompleted(Events.newId(), 1, at, jobId, user, List.of("n1"),
                new ResourceAmounts(1000, 1000, 1024), at.minusSeconds(60), 10);
    }

    @Test
    void anEventTheDatabaseRefusesIsDeadLetteredAloneAndItsBatchIsApplied() throws InterruptedException {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String user = "batch-" + run;
        // A valid event the database refuses: the usage row its completion would write exists already (as a hand edit
        // or a second writer could leave it). The contract's bounds keep every valid name within its column.
        JobCompleted refused = completed("clash-" + run, user);
        QuarkusTransaction.requiringNew().run(() -> {
            JobRun running = new JobRun();
            running.jobId = refused.jobId();
            running.userName = user;
            running.startedAt = Instant.now().minusSeconds(60);
            running.gpuMilli = 1000;
            running.running = true;
            running.persist();
            UsageInterval clash = new UsageInterval();
            clash.id = refused.eventId();
            clash.userName = user;
            clash.jobId = "elsewhere-" + run;
            clash.intervalStart = Instant.now().minusSeconds(120);
            clash.intervalEnd = Instant.now().minusSeconds(100);
            clash.persist();
        });
        List<JobCompleted> good = List.of(completed("ok-1-" + run, user), completed("ok-2-" + run, user),
                completed("ok-3-" + run, user));
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_LIFECYCLE, good.get(0).key(), EventCodec.encode(good.get(0)));
            probe.send(Topics.JOBS_LIFECYCLE, refused.key(), EventCodec.encode(refused));
            probe.send(Topics.JOBS_LIFECYCLE, good.get(1).key(), EventCodec.encode(good.get(1)));
            probe.send(Topics.JOBS_LIFECYCLE, good.get(2).key(), EventCodec.encode(good.get(2)));

            var dead = probe.await(Topics.deadLetter("priority-accounting"), 1, WAIT,
                    r -> r.key().equals(refused.key()));
            assertEquals(1, dead.size());
            assertTrue(dead.get(0).value().contains(refused.eventId()), "the refused event itself is dead-lettered");
            assertTrue(dead.get(0).headers().get("dead-letter-reason").startsWith("handling failed: "),
                    dead.get(0).headers().toString());
        }
        for (JobCompleted e : good) {
            awaitProcessed(e);
        }
        // Applied exactly once: the database refuses each good event as already processed.
        for (JobCompleted e : good) {
            assertTrue(store.apply(e, user).isEmpty(), e.jobId() + " is recorded as processed");
        }
        assertTrue(QuarkusTransaction.requiringNew().call(() -> ProcessedEvent.findById(refused.eventId()) == null),
                "the refused event left nothing behind");
    }

    /** Waits until {@code e} is recorded as processed in the database: it was applied. */
    static void awaitProcessed(JobCompleted e) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (QuarkusTransaction.requiringNew().call(() -> ProcessedEvent.findById(e.eventId()) == null)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + e.jobId() + " to be applied");
            }
            Thread.sleep(100);
        }
    }
}
