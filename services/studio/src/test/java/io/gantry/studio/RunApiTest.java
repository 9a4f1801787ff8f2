package io.gantry.studio;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.Topics;
import io.gantry.events.TuningChange;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Graphs and runs through the real broker: a saved graph is versioned and private; a run is published as JobSubmitted;
 * the lifecycle and tuned events a job produces become its state, curves, tuning and result, live over SSE; another
 * user can neither see nor cancel it; a cancel request reaches gantry.jobs.cancellations.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class RunApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TestHTTPResource("/")
    URL base;

    private static io.restassured.specification.RequestSpecification as(String user) {
        return given().header("X-Gantry-User", user).contentType(ContentType.JSON);
    }

    @Test
    void graphsAreVersionedAndPrivate() {
        int id = as("alice").body(Map.of("name", "my cnn", "graph", TestGraphs.smallCnn(), "dataset", "digits"))
                .post("/api/graphs").then().statusCode(201).body("version", equalTo(1)).extract().path("id");
        as("alice").body(Map.of("graph", TestGraphs.smallCnn(), "dataset", "digits")).put("/api/graphs/" + id)
                .then().statusCode(200).body("version", equalTo(2));
        as("alice").get("/api/graphs/" + id).then().statusCode(200).body("owner", equalTo("alice"))
                .body("versions", hasSize(2)).body("versions[1].graph.layers[1].params.filters", equalTo(8));
        as("alice").get("/api/graphs").then().body("find { it.id == " + id + " }.latestVersion", equalTo(2));
        as("bob").get("/api/graphs/" + id).then().statusCode(404);
        as("bob").body(Map.of("graph", TestGraphs.smallCnn(), "dataset", "digits")).put("/api/graphs/" + id)
                .then().statusCode(404);
        as("bob").get("/api/graphs").then().body("find { it.id == " + id + " }", equalTo(null));
        as("bob").body(Map.of("graphId", id, "dataset", "digits")).post("/api/runs").then().statusCode(404);
        // An invalid graph is not saved.
        as("alice").body(Map.of("name", "broken", "graph", TestGraphs.smallCnn(), "dataset", "iris"))
                .post("/api/graphs").then().statusCode(400).body("nodeId", equalTo("conv"));
    }

    @Test
    void aRunFollowsItsJobAndOnlyItsOwnerSeesIt() throws Exception {
        int graphId = as("carol").body(Map.of("name", "iris mlp", "graph", TestGraphs.irisMlp(), "dataset", "iris"))
                .post("/api/graphs").then().statusCode(201).extract().path("id");
        String runId = as("carol").body(Map.of("graphId", graphId, "version", 1, "epochs", 5, "learningRate", 0.02,
                        "seed", 7, "target", Map.of("metric", "test_accuracy", "value", 0.9)))
                .post("/api/runs").then().statusCode(201).body("state", equalTo("SUBMITTED")).extract().path("runId");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            JobSubmitted job = EventCodec.decode(probe.await(Topics.JOBS_SUBMITTED, 1, WAIT,
                    s -> s.key().equals(runId)).get(0).value(), JobSubmitted.class);
            assertEquals("carol", job.user());
            assertEquals("iris", job.training().dataset());
            assertEquals(5, job.training().epochs());
            assertEquals(0.02, job.training().learningRate());
            assertEquals(7L, job.training().seed());

            List<String> stream = new ArrayList<>();
            Thread reader = sse(runId, "carol", stream);
            send(probe, new JobTuned(Events.newId(), 1, Instant.now(), runId, "carol", job.jobName(), job.model(),
                    job.occurredAt(), 1, job.perTask(), null, null, null, 12.0,
                    List.of(new TuningChange("batchSize", "32", "64", "goodput: 1.4x the samples per second")),
                    "batch 32 -> 64", true, job.training()));
            send(probe, new JobStarted(Events.newId(), 1, Instant.now(), runId, "carol", List.of("sim-node-01"),
                    job.perTask(), job.occurredAt(), "kube-default"));
            for (int e = 1; e <= 3; e++) {
                send(probe, new JobProgress(Events.newId(), 1, Instant.now(), runId, "carol", e / 5.0, e, 1.0 / e,
                        0.5 + e * 0.1, 800.0, (long) e * 4, 1.0 / e, 1.1 / e, 0.5 + e * 0.1));
            }
            send(probe, new JobResult(Events.newId(), 1, Instant.now(), runId, "carol", 1, 0.93, 0.2,
                    new int[][]{{8, 0, 0}, {0, 7, 1}, {0, 1, 6}}, 3, 3, 300_000_000L, 4.5, 5.0, 800.0,
                    job.training().modelKey(), 64, 0.02));
            send(probe, new JobCompleted(Events.newId(), 1, Instant.now(), runId, "carol", List.of("sim-node-01"),
                    job.perTask(), job.occurredAt(), 5.0));

            // The tuned and lifecycle topics are consumed apart: wait for both.
            await(runId, "carol", "state", "COMPLETED");
            await(runId, "carol", "tuning[0].to", "64");
            as("carol").get("/api/runs/" + runId).then().statusCode(200).body("progress", hasSize(3))
                    .body("progress[2].validationAccuracy", equalTo(0.8f)).body("tuning[0].to", equalTo("64"))
                    .body("tuning[0].reason", containsString("goodput")).body("result.testAccuracy", equalTo(0.93f))
                    .body("result.confusionMatrix[1][2]", equalTo(1)).body("node", equalTo("sim-node-01"))
                    .body("epochs", equalTo(5)).body("graphId", equalTo(graphId)).body("version", equalTo(1));
            as("carol").get("/api/runs").then().body("find { it.runId == '" + runId + "' }.state", equalTo("COMPLETED"))
                    .body("find { it.runId == '" + runId + "' }.epoch", equalTo(3));

            reader.join(WAIT.toMillis());
            String events;
            synchronized (stream) {
                events = String.join("\n", stream).replace("event: ", "event:");
            }
            assertEquals(3, count(events, "event:progress"), events);
            assertEquals(1, count(events, "event:result"), events);
            assertTrue(events.indexOf("\"state\":\"RUNNING\"") < events.indexOf("\"state\":\"COMPLETED\""), events);

            as("dave").get("/api/runs/" + runId).then().statusCode(404);
            as("dave").post("/api/runs/" + runId + "/cancel").then().statusCode(404);
            as("dave").get("/api/runs").then().body("find { it.runId == '" + runId + "' }", equalTo(null));
            as("carol").post("/api/runs/" + runId + "/cancel").then().statusCode(409)
                    .body("reason", containsString("already ended"));
        }
    }

    @Test
    void cancellingOnesOwnRunPublishesTheRequest() {
        String runId = as("erin").body(Map.of("graph", TestGraphs.irisMlp(), "dataset", "iris", "epochs", 2))
                .post("/api/runs").then().statusCode(201).extract().path("runId");
        as("frank").post("/api/runs/" + runId + "/cancel").then().statusCode(404);
        as("erin").post("/api/runs/" + runId + "/cancel").then().statusCode(202).body("state", equalTo("CANCELLING"));
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            List<TopicProbe.Seen> seen = probe.await(Topics.JOBS_CANCELLATIONS, 1, WAIT, s -> s.key().equals(runId));
            JobCancelRequested r = EventCodec.decode(seen.get(0).value(), JobCancelRequested.class);
            assertEquals("erin", r.user());
            assertEquals(1, probe.readAll(Topics.JOBS_CANCELLATIONS).stream().filter(s -> s.key().equals(runId)).count());
        }
        as("erin").get("/api/runs/" + runId).then().body("cancelRequested", equalTo(true))
                .body("state", equalTo("SUBMITTED"));
    }

    @Test
    void meAnswersWithoutPriorityAccountingAndSaysWhy() {
        as("alice").get("/api/me").then().statusCode(200).body("user", equalTo("alice"))
                .body("priority", equalTo(null)).body("reason", containsString("unreachable"));
    }

    private static void send(TopicProbe probe, GantryEvent e) {
        String topic = e instanceof JobTuned ? Topics.JOBS_TUNED : Topics.JOBS_LIFECYCLE;
        probe.send(topic, e.key(), EventCodec.encode(e));
    }

    private static void await(String runId, String user, String path, String value) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Object now = null;
        while (System.nanoTime() < deadline) {
            now = as(user).get("/api/runs/" + runId).then().statusCode(200).extract().path(path);
            if (value.equals(now)) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new AssertionError("run " + runId + ": " + path + " is " + now + ", not " + value);
    }

    /** Reads the run's SSE stream into {@code lines} until its result and COMPLETED state have come. */
    private Thread sse(String runId, String user, List<String> lines) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/runs/" + runId + "/events"))
                .header("X-Gantry-User", user).header("Accept", "text/event-stream").build();
        HttpResponse<java.io.InputStream> res = HttpClient.newHttpClient().send(req,
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, res.statusCode());
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    if (line.contains("\"state\":\"COMPLETED\"")) {
                        return;
                    }
                }
            } catch (java.io.IOException e) {
                lines.add("read failed: " + e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
