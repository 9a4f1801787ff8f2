package io.gantry.tuner;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.quarkus.test.security.TestSecurity;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.LogConfig;
import io.restassured.http.ContentType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST /tuner/preview} answers any body it cannot tune with 400 naming the field and the reason, never a 5xx. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class TunerPreviewBodiesTest {

    private static final String HUGE = "x".repeat(100_000);

    /** A valid profiled job with {@code field} set to {@code value} (raw JSON). */
    private static String with(String field, String value) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("tasks", "1");
        f.put("perTask", amounts("gpuMilli", "1000"));
        f.put("model", "\"cifar10\"");
        f.put("batchSize", "256");
        f.put("epochs", "10");
        f.put("durationS", "600");
        f.put(field, value);
        StringBuilder b = new StringBuilder();
        f.forEach((k, v) -> b.append(b.isEmpty() ? "{" : ", ").append('"').append(k).append("\": ").append(v));
        return b.append("}").toString();
    }

    /** One GPU's request with {@code amount} set to {@code value} (raw JSON). */
    private static String amounts(String amount, String value) {
        Map<String, String> a = new LinkedHashMap<>(Map.of("gpuMilli", "1000", "cpuMilli", "4000", "memoryMib", "8192"));
        a.put(amount, value);
        StringBuilder b = new StringBuilder();
        a.forEach((k, v) -> b.append(b.isEmpty() ? "{" : ", ").append('"').append(k).append("\": ").append(v));
        return b.append("}").toString();
    }

    /** Bodies with the field the 400 must name; null: any field (Jackson stops somewhere inside the nesting). */
    private static Map<String, String> hostileBodies() {
        Map<String, String> b = new LinkedHashMap<>();
        b.put("", "body");
        b.put("null", "body");
        b.put("[]", "body");
        b.put("[" + with("tasks", "1") + "]", "body");
        b.put("\"a job\"", "body");
        b.put("12", "body");
        b.put("{", "body");
        b.put("{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000), null);
        b.put("[".repeat(100_000), null);
        for (String field : new String[] {"tasks", "batchSize", "epochs"}) {
            for (String v : new String[] {"2147483647", "2147483648", "-2147483648", "-1", "0", "1e300", "\"NaN\"",
                    "NaN", "Infinity", "[1]", "{}", "\"" + HUGE + "\"", "99999999999999999999999999"}) {
                b.put(with(field, v), field);
            }
        }
        for (String v : new String[] {"1e300", "-1e300", "-1", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "NaN",
                "1e400", "[600]", "\"" + HUGE + "\""}) {
            b.put(with("durationS", v), "durationS");
        }
        for (String amount : new String[] {"gpuMilli", "cpuMilli", "memoryMib"}) {
            for (String v : new String[] {"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-1",
                    "1e300", "\"NaN\""}) {
                b.put(with("perTask", amounts(amount, v)), "perTask." + amount);
            }
        }
        for (String bound : new String[] {"maxGpus", "minBatchSize", "maxBatchSize"}) {
            for (String v : new String[] {"2147483647", "-1", "1e300", "\"NaN\""}) {
                b.put(with("tuning", "{\"enabled\": true, \"" + bound + "\": " + v + "}"), "tuning." + bound);
            }
        }
        b.put(with("tuning", "{\"enabled\": true, \"maxGpus\": 2147483647}").replace("\"tasks\": 1", "\"tasks\": 2147483647"),
                "tasks");
        b.put(with("perTask", "null"), "perTask");
        b.put(with("model", "\"" + HUGE + "\""), "model");
        b.put(with("jobName", "\"" + HUGE + "\""), "jobName");
        b.put(with("user", "\"" + HUGE + "\""), "user");
        b.put(with("user", "\"../../etc/passwd\\n<script>\""), "user");
        b.put(with("jobId", "\"" + HUGE + "\""), "jobId");
        b.put(with("jobId", "\"a b\""), "jobId");
        return b;
    }

    @Test
    void everyHostileBodyIsA400NamingTheFieldAndTheReason() {
        // RestAssured pretty-prints the request for its failure log, which a 100,000-deep nesting turns into gigabytes.
        var plain = RestAssured.config().logConfig(LogConfig.logConfig().enablePrettyPrinting(false));
        hostileBodies().forEach((body, field) -> given().config(plain).contentType(ContentType.JSON).body(body)
                .post("/tuner/preview")
                .then().statusCode(400)
                .body("field", field == null ? not(emptyOrNullString()) : equalTo(field))
                .body("reason", not(emptyOrNullString())));
    }

    @Test
    void theLargestValuesTheContractAllowsArePreviewed() {
        given().contentType(ContentType.JSON).body(with("tuning", "{\"enabled\": true, \"maxGpus\": 8192, "
                        + "\"maxBatchSize\": 16777216}").replace("\"durationS\": 600", "\"durationS\": 31622400"))
                .post("/tuner/preview").then().statusCode(200).body("durationS", org.hamcrest.Matchers.lessThanOrEqualTo(31622400f));
        given().contentType(ContentType.JSON).body(with("tasks", "1024").replace("\"cifar10\"", "\"ncf\"")
                        .replace("\"gpuMilli\": 1000", "\"gpuMilli\": 8000")).post("/tuner/preview").then().statusCode(200);
    }
}
