package io.gantry.priority;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.priority.service.AccountingStore;
import io.gantry.priority.service.PriorityBook;
import io.gantry.scheduling.fairness.DynamicPriority;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The accounting guarantees, run once per database (H2 and PostgreSQL subclasses). Events go through the real
 * broker and consumer; each test uses its own user names, since the database lives for the whole Quarkus run.
 */
abstract class AccountingContract {

    private static final ResourceAmounts ONE_GPU = new ResourceAmounts(1000, 4000, 8192);

    @Inject
    AccountingStore store;
    @Inject
    PriorityBook book;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private String user(String name) {
        return name + "-" + run;
    }

    private static JobStarted started(String job, String user, Instant at, int tasks) {
        return new JobStarted(Events.newId(), 1, at, job, user, java.util.Collections.nCopies(tasks, "n1"), ONE_GPU,
                at.minusSeconds(5), "test");
    }

    private static JobCompleted completed(String job, String user, Instant at, double runtimeS) {
        return new JobCompleted(Events.newId(), 1, at, job, user, List.of("n1"), ONE_GPU, at.minusSeconds(100), runtimeS);
    }

    private static void send(TopicProbe probe, GantryEvent e) {
        probe.send(Topics.JOBS_LIFECYCLE, e.key(), EventCodec.encode(e));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    private static float gpuSeconds(String user) {
        return given().get("/users/" + user + "/usage").then().statusCode(200).extract().path("gpuSeconds");
    }

    private static int intervals(String user) {
        return given().get("/users/" + user + "/usage").then().statusCode(200).extract().path("intervals.size()");
    }

    @Test
    void aDuplicatedLifecycleEventLeavesTheLedgerUnchanged() throws Exception {
        String alice = user("dup");
        Instant t0 = Instant.now().minusSeconds(600);
        JobStarted start = started("dup-job-" + run, alice, t0, 2);
        JobCompleted done = completed("dup-job-" + run, alice, t0.plusSeconds(300), 300);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            send(probe, start);
            send(probe, done);
            await("the stint in the ledger", () -> store.user(alice).isPresent() && intervals(alice) == 1);
            assertEquals(2 * 300, gpuSeconds(alice), 1e-3, "two 1-GPU tasks for 300 s");

            // The very same event again (a redelivery), and the same completion under a new event id (a producer
            // retry), then a marker on the same partition to know both were consumed.
            send(probe, done);
            send(probe, new JobCompleted(Events.newId(), 1, done.occurredAt(), done.jobId(), alice, done.nodes(),
                    done.perTask(), done.submittedAt(), done.runtimeS()));
            JobStarted marker = started("dup-job-" + run, alice, t0.plusSeconds(400), 1);
            send(probe, marker);
            await("the marker", () -> store.runningJobs(alice).size() == 1);
        }
        assertEquals(1, intervals(alice));
        assertEquals(600, gpuSeconds(alice), 1e-3);
        // After a restart the in-memory duplicate filter is empty: the database alone must refuse the event.
        assertTrue(store.apply(done, alice).isEmpty(), "an event already in the database is not applied again");
        assertTrue(store.apply(start, alice).isEmpty());
        assertEquals(600, gpuSeconds(alice), 1e-3);
    }

    @Test
    void aRestartRebuildsTheSamePrioritiesFromTheDatabase() throws Exception {
        String heavy = user("heavy");
        String light = user("light");
        given().contentType(ContentType.JSON).body(Map.of("name", heavy, "basePriority", 5, "weight", 1))
                .post("/users").then().statusCode(201);
        given().contentType(ContentType.JSON).body(Map.of("name", light, "basePriority", 0, "weight", 3))
                .post("/users").then().statusCode(201);
        Instant t0 = Instant.now().minusSeconds(3600);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (int i = 0; i < 4; i++) {
                String job = "heavy-" + i + "-" + run;
                send(probe, started(job, heavy, t0.plusSeconds(i * 600L), 4));
                send(probe, completed(job, heavy, t0.plusSeconds(i * 600L + 500), 500));
            }
            send(probe, started("light-0-" + run, light, t0.plusSeconds(100), 1));
            send(probe, started("heavy-running-" + run, heavy, t0.plusSeconds(3000), 2)); // still running
            await("every event", () -> store.runningJobs(heavy).size() == 1 && intervals(heavy) == 4
                    && store.runningJobs(light).size() == 1);
        }
        Instant at = Instant.now();
        Map<String, DynamicPriority.Assessment> before = book.assess(at);
        Map<String, Double> publishedBefore = book.lastPublished();
        assertTrue(before.get(light).priority() > before.get(heavy).priority(),
                "the heavy user yields despite its higher base priority: " + before.get(heavy).explanation());

        book.reload(); // exactly what start-up does: the in-memory state is dropped and read back from the database

        Map<String, DynamicPriority.Assessment> after = book.assess(at);
        for (String u : List.of(heavy, light)) {
            double p = before.get(u).priority();
            assertEquals(p, after.get(u).priority(), 1e-9 * Math.max(1, Math.abs(p)), u);
            assertEquals(before.get(u).decayedGpuSeconds(), after.get(u).decayedGpuSeconds(),
                    1e-9 * Math.max(1, before.get(u).decayedGpuSeconds()), u);
        }
        assertEquals(publishedBefore.get(heavy), book.lastPublished().get(heavy));
    }

    @Test
    void badInputIsRefusedWithTheFieldNamed() {
        given().contentType(ContentType.JSON).body(Map.of("name", user("w"), "weight", -1)).post("/users")
                .then().statusCode(400).body("errors.field", hasItem("weight"));
        given().contentType(ContentType.JSON).body("{\"name\":\"" + user("b") + "\",\"basePriority\":\"high\"}")
                .post("/users").then().statusCode(400).body("errors[0].field", equalTo("basePriority"));
        given().contentType(ContentType.JSON).body(Map.of("name", "no spaces please")).post("/users")
                .then().statusCode(400).body("errors[0].field", equalTo("name"));
        // Broken JSON syntax has no field to name: Quarkus's own reader answers 400 without a body.
        given().contentType(ContentType.JSON).body("{not json").post("/users").then().statusCode(400);
        given().contentType(ContentType.JSON).body(Map.of("basePriority", 1)).put("/users/" + user("nobody"))
                .then().statusCode(404);
        given().get("/users/" + user("nobody") + "/usage").then().statusCode(404);
        String ok = user("ok");
        given().contentType(ContentType.JSON).body(Map.of("name", ok, "basePriority", 2)).post("/users")
                .then().statusCode(201).body("basePriority", equalTo(2.0f));
        given().contentType(ContentType.JSON).body(Map.of("name", ok)).post("/users").then().statusCode(409);
        given().contentType(ContentType.JSON).body(Map.of("maxGpus", -3)).put("/users/" + ok)
                .then().statusCode(400).body("errors[0].field", equalTo("maxGpus"));
        given().contentType(ContentType.JSON).body(Map.of("basePriority", 7)).put("/users/" + ok)
                .then().statusCode(200).body("basePriority", equalTo(7.0f));
    }

    @Test
    void fairnessReportsWhoIsStarvingAndForHowLong() throws Exception {
        String waiter = user("waiter");
        Instant submitted = Instant.now().minusSeconds(3600);
        JobSubmitted s = new JobSubmitted(Events.newId(), 1, submitted, "wait-" + run, waiter, "j", null, 1, ONE_GPU,
                null, null, 600.0, null);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, s.key(), EventCodec.encode(s));
            await("the waiting job", () -> store.user(waiter).isPresent()
                    && book.fairness(Instant.now()).starving().contains(waiter));
        }
        given().get("/fairness").then().statusCode(200)
                .body("starving", hasItem(waiter))
                .body("users.find { it.user == '" + waiter + "' }.waitingJobs", equalTo(1))
                .body("users.find { it.user == '" + waiter + "' }.longestWaitS", org.hamcrest.Matchers.greaterThanOrEqualTo(3600f));
        float jain = given().get("/fairness").then().extract().path("jainIndex");
        assertTrue(jain > 0 && jain <= 1, "Jain's index is in (0, 1]: " + jain);
    }
}
