package io.gantry.priority;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.Limits;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.priority.service.AccountingStore;
import io.gantry.priority.service.PriorityBook;
import io.gantry.scheduling.fairness.DynamicPriority;
import io.gantry.scheduling.fairness.FairShareLedger;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The accounting guarantees, run once per database (H2 and PostgreSQL subclasses). Events go through the real
 * broker and consumer; each test uses its own user names, since the database lives for the whole Quarkus run.
 */
// Runs as an admin (who may also read): the security tests check each role on its own. On this class: Quarkus reads
// it from the class that declares the test method.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
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
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3600);
        // What the book must hold once every event below is applied, from the model it uses.
        FairShareLedger expected = new FairShareLedger(book.halfLifeS());
        double t0S = AccountingStore.seconds(t0);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (int i = 0; i < 4; i++) {
                expected.charge(heavy, 4, t0S + i * 600, t0S + i * 600 + 500);
                String job = "heavy-" + i + "-" + run;
                send(probe, started(job, heavy, t0.plusSeconds(i * 600L), 4));
                send(probe, completed(job, heavy, t0.plusSeconds(i * 600L + 500), 500));
            }
            send(probe, started("light-0-" + run, light, t0.plusSeconds(100), 1));
            send(probe, started("heavy-running-" + run, heavy, t0.plusSeconds(3000), 2)); // still running
            expected.startRunning(light, 1, t0S + 100);
            expected.startRunning(heavy, 2, t0S + 3000);
            await("every event", () -> store.runningJobs(heavy).size() == 1 && intervals(heavy) == 4
                    && store.runningJobs(light).size() == 1);
        }
        Instant at = Instant.now();
        // The writer commits a batch before it applies it to the book, so the database can show an event the book
        // has not taken yet (which made the snapshot below miss the running job once).
        await("the book to apply every event", () -> {
            Map<String, DynamicPriority.Assessment> now = book.assess(at);
            return List.of(heavy, light).stream().allMatch(u -> now.containsKey(u)
                    && Math.abs(now.get(u).decayedGpuSeconds() - expected.decayedUsage(u, AccountingStore.seconds(at))) < 1);
        });
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
        // The once-a-second publication may record a new priority between the snapshot and the reload; then the
        // reload must show that newer one, which the next snapshot holds.
        Double reloaded = book.lastPublished().get(heavy);
        if (!reloaded.equals(publishedBefore.get(heavy))) {
            publishedBefore = book.lastPublished();
            book.reload();
            reloaded = book.lastPublished().get(heavy);
        }
        assertEquals(publishedBefore.get(heavy), reloaded);
    }

    @Test
    void badInputIsRefusedWithTheFieldNamed() {
        given().contentType(ContentType.JSON).body(Map.of("name", user("w"), "weight", -1)).post("/users")
                .then().statusCode(400).body("errors.field", hasItem("weight"));
        given().contentType(ContentType.JSON).body("{\"name\":\"" + user("b") + "\",\"basePriority\":\"high\"}")
                .post("/users").then().statusCode(400).body("errors[0].field", equalTo("basePriority"));
        given().contentType(ContentType.JSON).body(Map.of("name", "no spaces please")).post("/users")
                .then().statusCode(400).body("errors[0].field", equalTo("name"));
        // Broken JSON syntax: the field the parser was reading when it broke, else the body, with the position.
        given().contentType(ContentType.JSON).body("{\"name\":\"" + user("m") + "\",\"weight\":}").post("/users")
                .then().statusCode(400).body("errors[0].field", equalTo("weight"))
                .body("errors[0].reason", containsString("line 1, column"));
        given().contentType(ContentType.JSON).body("{not json").post("/users")
                .then().statusCode(400).body("errors[0].field", equalTo("body"))
                .body("errors[0].reason", containsString("is not valid JSON at line 1, column 2"));
        given().contentType(ContentType.JSON).body("{\"basePriority\": 1,\n \"weight\": tru}").put("/users/" + user("nobody"))
                .then().statusCode(400).body("errors[0].field", equalTo("weight"))
                .body("errors[0].reason", containsString("line 2"));
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

    private static String scrape() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The value of the first sample of {@code name} whose labels include {@code label}; NaN when absent. */
    private static double sample(String text, String name, String label) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$").matcher(text);
        while (m.find()) {
            if (label.isEmpty() || (m.group(1) != null && m.group(1).contains(label))) {
                return Double.parseDouble(m.group(2));
            }
        }
        return Double.NaN;
    }

    @Test
    void metricsShowPrioritiesDecayedUsageAppliedEventsAndRecomputeTime() throws Exception {
        String metered = user("metered");
        String label = "user=\"" + metered + "\"";
        double appliedBefore = sample(scrape(), "gantry_priority_events_applied_total", "");
        Instant t0 = Instant.now().minusSeconds(900);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            send(probe, started("metered-" + run, metered, t0, 2));
            send(probe, completed("metered-" + run, metered, t0.plusSeconds(600), 600));
            await("the stint in the ledger", () -> store.user(metered).isPresent() && intervals(metered) == 1);
        }
        // The gauges follow the recomputation, once a second: one made between the start and the completion shows
        // the job still running (2 GPUs since t0, ~1,800 GPU-s), so wait for one made after the completion.
        await("the user's gauges after the completion", () -> {
            double u = sample(scrape(), "gantry_priority_user_usage_gpu_seconds", label);
            return !Double.isNaN(u) && u <= 1200;
        });
        String text = scrape();
        DynamicPriority.Assessment now = book.assess(Instant.now()).get(metered);
        assertEquals(now.priority(), sample(text, "gantry_priority_user_priority", label),
                0.01 * Math.max(1, Math.abs(now.priority())), "priority as of the last recomputation");
        double usage = sample(text, "gantry_priority_user_usage_gpu_seconds", label);
        assertTrue(usage > 1195 && usage <= 1200, "2 GPUs for 600 s, decayed by a few seconds of a week's half-life: " + usage);
        assertTrue(sample(text, "gantry_priority_events_applied_total", "") >= appliedBefore + 2,
                "the start and the completion were applied");
        assertTrue(sample(text, "gantry_priority_recompute_seconds_count", "") > 0, "recomputations are timed");
        assertTrue(sample(text, "gantry_priority_recompute_seconds_sum", "") > 0);
    }

    /** Every column holds the longest user and job id the event contract allows, on each database. */
    @Test
    void theLongestUserAndJobIdTheContractAllowsAreStored() throws Exception {
        String longest = "u".repeat(Limits.MAX_USER_LENGTH - run.length() - 1) + "-" + run;
        String jobId = "gantry-jobs/" + "p".repeat(Limits.MAX_JOB_ID_LENGTH - "gantry-jobs/".length() - run.length()) + run;
        assertEquals(List.of(200, 317), List.of(longest.length(), jobId.length()));
        Instant t0 = Instant.now().minusSeconds(600);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            JobSubmitted s = new JobSubmitted(Events.newId(), 1, t0.minusSeconds(5), jobId, longest, "j", null, 1, ONE_GPU,
                    null, null, 600.0, null);
            probe.send(Topics.JOBS_SUBMITTED, s.key(), EventCodec.encode(s));
            send(probe, started(jobId, longest, t0, 1));
            send(probe, completed(jobId, longest, t0.plusSeconds(300), 300));
            await("the longest names' stint in the ledger", () -> store.user(longest).isPresent() && intervals(longest) == 1);
        }
        given().get("/users/" + longest + "/usage").then().statusCode(200).body("intervals[0].jobId", equalTo(jobId));
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

    @Test
    void aQueuedJobCancelledByItsOwnerWaitsNoMore() throws Exception {
        String waiter = user("canceller");
        JobSubmitted s = new JobSubmitted(Events.newId(), 1, Instant.now().minusSeconds(3600), "cancelled-" + run, waiter,
                "j", null, 1, ONE_GPU, null, null, 600.0, null);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, s.key(), EventCodec.encode(s));
            await("the waiting job", () -> store.user(waiter).isPresent()
                    && book.fairness(Instant.now()).starving().contains(waiter));
            // What sac-scheduler writes when the owner cancels a job still in its queue.
            send(probe, new JobFailed(Events.newId(), 1, Instant.now(), s.jobId(), waiter, List.of(), ONE_GPU,
                    JobCancelRequested.REASON, false));
            // Without the ledger's Waiting change the book would count the job as waiting until a restart.
            await("the cancelled job to stop waiting", () -> !book.fairness(Instant.now()).starving().contains(waiter));
        }
    }
}
