package io.gantry.priority;

import static io.restassured.RestAssured.given;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Who may do what, with real bearer tokens signed by the test key: 401 without a token, 403 with the wrong role, 2xx
 * with the right one, for every endpoint that changes state; a user reads only its own entry and usage.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SecurityTest {

    private final String alice = "sec-alice-" + UUID.randomUUID().toString().substring(0, 6);
    private final String bob = "sec-bob-" + UUID.randomUUID().toString().substring(0, 6);

    private static RequestSpecification as(String token) {
        RequestSpecification r = given().contentType(ContentType.JSON);
        return token == null ? r : r.auth().oauth2(token);
    }

    private static String user(String name) {
        return "{\"name\":\"" + name + "\",\"basePriority\":1,\"weight\":1}";
    }

    @Test
    void changingUsersNeedsAnAdminToken() {
        as(null).body(user(alice)).post("/users").then().statusCode(401);
        as(TestTokens.user(alice)).body(user(alice)).post("/users").then().statusCode(403);
        as(TestTokens.operator()).body(user(alice)).post("/users").then().statusCode(403);
        as(TestTokens.admin()).body(user(alice)).post("/users").then().statusCode(201);

        String change = "{\"basePriority\":3}";
        as(null).body(change).put("/users/" + alice).then().statusCode(401);
        as(TestTokens.user(alice)).body(change).put("/users/" + alice).then().statusCode(403);
        as(TestTokens.operator()).body(change).put("/users/" + alice).then().statusCode(403);
        as(TestTokens.admin()).body(change).put("/users/" + alice).then().statusCode(200);
    }

    @Test
    void pausingAChannelNeedsAnAdminToken() {
        for (String action : new String[] {"pause", "resume"}) {
            String path = "/admin/channels/lifecycle/" + action;
            as(null).post(path).then().statusCode(401);
            as(TestTokens.user(alice)).post(path).then().statusCode(403);
            as(TestTokens.operator()).post(path).then().statusCode(403);
            as(TestTokens.admin()).post(path).then().statusCode(200);
        }
        as(null).get("/admin/status").then().statusCode(401);
        as(TestTokens.user(alice)).get("/admin/status").then().statusCode(403);
        as(TestTokens.operator()).get("/admin/status").then().statusCode(200);
    }

    @Test
    void aUserReadsOnlyItsOwnEntryAndUsage() {
        as(TestTokens.admin()).body(user(alice)).post("/users").then().statusCode(201);
        as(TestTokens.admin()).body(user(bob)).post("/users").then().statusCode(201);

        as(null).get("/users/" + alice).then().statusCode(401);
        as(TestTokens.user(alice)).get("/users/" + alice).then().statusCode(200);
        as(TestTokens.user(alice)).get("/users/" + alice + "/usage").then().statusCode(200);
        as(TestTokens.user(alice)).get("/users/" + bob).then().statusCode(403);
        as(TestTokens.user(alice)).get("/users/" + bob + "/usage").then().statusCode(403);
        // Whether a user exists is not told to another user either.
        as(TestTokens.user(alice)).get("/users/nobody-" + bob).then().statusCode(403);
        as(TestTokens.user(alice)).get("/users").then().statusCode(403);
        as(TestTokens.user(alice)).get("/fairness").then().statusCode(403);

        as(TestTokens.operator()).get("/users").then().statusCode(200);
        as(TestTokens.operator()).get("/users/" + bob + "/usage").then().statusCode(200);
        as(TestTokens.operator()).get("/fairness").then().statusCode(200);
    }

    @Test
    void aTokenFromAnotherKeyOrIssuerIsRefused() {
        String forged = TestTokens.user(alice);
        forged = forged.substring(0, forged.lastIndexOf('.') + 1) + "AAAA";
        as(forged).get("/users/" + alice).then().statusCode(401);
    }

    @Test
    void healthAndMetricsStayOpen() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
    }
}
