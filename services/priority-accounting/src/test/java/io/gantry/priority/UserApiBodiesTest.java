package io.gantry.priority;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;

import io.quarkus.test.security.TestSecurity;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.LogConfig;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /users} and {@code PUT /users/{name}} answer any body with 400 naming the field and the reason (or the
 * documented 404 for an unknown user and 409 for an existing one), never with a 5xx.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class UserApiBodiesTest {

    private static final String HUGE = "x".repeat(100_000);

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    /** Bodies no user can be made of, each with the field the answer must name (null: any field). */
    private static Map<String, String> hostileBodies(String name) {
        Map<String, String> b = new LinkedHashMap<>();
        b.put("", "body");
        b.put("null", "body");
        b.put("[]", "body");
        b.put("[{\"name\": \"" + name + "\"}]", "body");
        b.put("\"" + name + "\"", "body");
        b.put("42", "body");
        b.put("{", "body");
        // Nested past Jackson's depth limit: where it stopped is some field of the nesting, or the body.
        b.put("{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000), null);
        b.put("[".repeat(100_000), null);
        b.put("{\"name\": \"" + name + "\", \"basePriority\": NaN}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"basePriority\": \"NaN\"}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"basePriority\": \"-Infinity\"}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"basePriority\": 1e400}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"basePriority\": -1e300}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"basePriority\": [1]}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"basePriority\": {\"v\": 1}}", "basePriority");
        b.put("{\"name\": \"" + name + "\", \"weight\": 0}", "weight");
        b.put("{\"name\": \"" + name + "\", \"weight\": -1}", "weight");
        b.put("{\"name\": \"" + name + "\", \"weight\": 1e308}", "weight");
        b.put("{\"name\": \"" + name + "\", \"weight\": \"Infinity\"}", "weight");
        b.put("{\"name\": \"" + name + "\", \"weight\": \"" + HUGE + "\"}", "weight");
        b.put("{\"name\": \"" + name + "\", \"maxGpus\": 2147483648}", "maxGpus");
        b.put("{\"name\": \"" + name + "\", \"maxGpus\": 1e20}", "maxGpus");
        b.put("{\"name\": \"" + name + "\", \"maxGpus\": -1}", "maxGpus");
        b.put("{\"name\": \"" + name + "\", \"maxGpus\": 2147483647}", "maxGpus");
        b.put("{\"name\": \"" + name + "\", \"maxGpus\": \"many\"}", "maxGpus");
        return b;
    }

    private static ValidatableResponse send(String method, String path, String body) {
        // RestAssured pretty-prints the request for its failure log, which a 100,000-deep nesting turns into gigabytes.
        var request = given().config(RestAssured.config().logConfig(LogConfig.logConfig().enablePrettyPrinting(false)))
                .contentType(ContentType.JSON).body(body);
        return (method.equals("POST") ? request.post(path) : request.put(path)).then();
    }

    private static void badRequest(ValidatableResponse answer, String field) {
        answer.statusCode(400).body("errors[0].field", field == null ? not(emptyOrNullString()) : equalTo(field))
                .body("errors[0].reason", not(emptyOrNullString()));
    }

    @Test
    void everyHostileBodyToCreateIsA400NamingTheField() {
        String name = "hostile-" + run;
        hostileBodies(name).forEach((body, field) -> badRequest(send("POST", "/users", body), field));
        for (String bad : new String[] {HUGE, "../../etc/passwd\n<script>", "", " alice", "a b", "-lead"}) {
            badRequest(send("POST", "/users", "{\"name\": " + quoted(bad) + "}"), "name");
        }
        badRequest(send("POST", "/users", "{\"weight\": 1}"), "name");
        // None of them made a user.
        given().get("/users/" + name).then().statusCode(404);
    }

    @Test
    void everyHostileBodyToUpdateIsA400NamingTheFieldAndTheNameInThePathIsChecked() {
        String name = "target-" + run;
        send("POST", "/users", "{\"name\": \"" + name + "\"}").statusCode(201);
        hostileBodies(name).forEach((body, field) -> badRequest(send("PUT", "/users/" + name, body), field));
        badRequest(send("PUT", "/users/" + name, "{\"name\": \"someone-else\"}"), "name");
        badRequest(send("PUT", "/users/" + "n".repeat(300), "{\"weight\": 2}"), "name");
        badRequest(send("PUT", "/users/a%20b", "{\"weight\": 2}"), "name");
        send("PUT", "/users/nobody-" + run, "{\"weight\": 2}").statusCode(404);
        given().get("/users/" + "n".repeat(300)).then().statusCode(404);
        given().get("/users/" + "n".repeat(300) + "/usage").then().statusCode(404);
        send("POST", "/users", "{\"name\": \"" + name + "\"}").statusCode(409);
        // The user is as created: nothing above changed it.
        given().get("/users/" + name).then().statusCode(200).body("weight", equalTo(1.0f));
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
