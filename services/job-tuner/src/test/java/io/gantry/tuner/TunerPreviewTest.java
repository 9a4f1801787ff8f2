package io.gantry.tuner;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ResourceAmounts;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Instant;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class TunerPreviewTest {

    private static final String GPU = "\"perTask\":{\"gpuMilli\":1000,\"cpuMilli\":4000,\"memoryMib\":8192}";

    private static io.restassured.response.ValidatableResponse post(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/tuner/preview").then();
    }

    private static void badRequest(String body, String field, String reasonPart) {
        post(body).statusCode(400).body("field", equalTo(field)).body("reason", containsString(reasonPart));
    }

    @Test
    void badBodiesAreAnsweredWith400NamingTheField() {
        badRequest("", "body", "is required");
        badRequest("{\"tasks\": 2, \"batchSize\": }", "batchSize", "malformed JSON");
        badRequest("{\"tasks\": 2, " + GPU.replace("4000", "4k") + "}", "perTask.cpuMilli", "malformed JSON");
        badRequest("{\"tasks\": \"two\", " + GPU + "}", "tasks", "has the wrong type");
        badRequest("{\"tasks\": 1, " + GPU + ", \"tuning\": {\"enabled\": true, \"maxGpus\": [1]}}", "tuning.maxGpus",
                "has the wrong type");
        badRequest("[1, 2]", "body", "");
        badRequest("{" + GPU + "}", "tasks", "is required");
        badRequest("{\"tasks\": 1}", "perTask", "is required");
        badRequest("{\"tasks\": 1, " + GPU + ", \"batchSize\": 0}", "batchSize", "must be at least 1, was 0");
        badRequest("{\"tasks\": 1, " + GPU + ", \"epochs\": -1}", "epochs", "must be at least 1, was -1");
        badRequest("{\"tasks\": 1, \"perTask\": {\"gpuMilli\": 9000, \"cpuMilli\": 1, \"memoryMib\": 1}}", "perTask.gpuMilli",
                "largest node has (8 GPUs)");
        badRequest("{\"tasks\": 1, " + GPU + ", \"model\": \"cifar10\", \"batchSize\": 64,"
                + " \"tuning\": {\"enabled\": true, \"minBatchSize\": 128}}", "batchSize", "below your own tuning.minBatchSize 128");
    }

    @Test
    void anUnknownModelPassesThroughWithItsReason() {
        post("{\"tasks\": 2, " + GPU + ", \"model\": \"gpt-5\", \"batchSize\": 64, \"epochs\": 3}").statusCode(200)
                .body("outcome", equalTo("unchanged")).body("tasks", equalTo(2)).body("batchSize", equalTo(64))
                .body("changes.size()", equalTo(0))
                .body("summary", startsWith("not tuned: no measured profile for model 'gpt-5' (known: bert, cifar10"));
    }

    @Test
    void aProfiledJobShowsEveryChangeWithItsReasonWithinItsBounds() {
        post("{\"tasks\": 8, " + GPU + ", \"model\": \"cifar10\", \"batchSize\": 256, \"durationS\": 3600,"
                + " \"tuning\": {\"enabled\": true, \"minBatchSize\": 128, \"maxBatchSize\": 1024, \"maxGpus\": 8}}")
                .statusCode(200).body("outcome", equalTo("tuned")).body("summary", startsWith("tuned: predicted"))
                .body("batchSize", lessThanOrEqualTo(1024)).body("tasks", lessThanOrEqualTo(8))
                .body("predictedDurationS", greaterThan(0f))
                .body("changes.field", hasItem("batchSize")).body("changes.reason", everyItem(not(emptyOrNullString())));
    }

    @Test
    void aWholeJobSubmittedEventIsAcceptedAsTheBody() {
        JobSubmitted event = new JobSubmitted(Events.newId(), 1, Instant.now(), "full-1", "alice", "x", null, 1,
                new ResourceAmounts(1000, 4000, 8192), null, null, 60.0, null);
        post(EventCodec.encode(event)).statusCode(200).body("outcome", equalTo("unchanged"))
                .body("summary", containsString("names no model"));
    }
}
