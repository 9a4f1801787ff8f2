package io.gantry.studio;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With bearer tokens, a user reaches only their own runs: bob's token, asking for alice's pending run, gets the 404 of
 * an unknown run for reading it, its event stream and cancelling it (a 403 would tell bob the id exists), and a 403
 * when it names alice in {@code X-Gantry-User} beside his own token.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class RunOwnershipTest {

    private static final String ALICE = TestTokens.user("alice");
    private static final String BOB = TestTokens.user("bob");

    @Test
    void bobsTokenNeitherReadsNorCancelsAlicesPendingRun() {
        String runId = as(ALICE).body(Map.of("graph", TestGraphs.irisMlp(), "dataset", "iris", "epochs", 3))
                .post("/api/runs").then().statusCode(201).extract().path("runId");
        as(ALICE).get("/api/runs/" + runId).then().statusCode(200).body("state", equalTo("SUBMITTED"));

        as(BOB).get("/api/runs/" + runId).then().statusCode(404);
        as(BOB).header("Accept", "text/event-stream").get("/api/runs/" + runId + "/events").then().statusCode(404);
        as(BOB).post("/api/runs/" + runId + "/cancel").then().statusCode(404);
        as(BOB).get("/api/runs").then().statusCode(200).body("find { it.runId == '" + runId + "' }", equalTo(null));
        // The header cannot make bob's token act for alice.
        as(BOB).header("X-Gantry-User", "alice").get("/api/runs/" + runId).then().statusCode(403)
                .body("field", equalTo("X-Gantry-User")).body("reason", containsString("the token's own user ('bob')"));
        as(BOB).header("X-Gantry-User", "alice").get("/api/me").then().statusCode(403);
        // A token without the role user is not a studio user; a forged, an expired or another key's one is refused
        // before anything.
        as(TestTokens.operator()).get("/api/runs").then().statusCode(403).body("field", equalTo("Authorization"));
        as(TestTokens.token("alice", List.of("user")) + "x").get("/api/runs").then().statusCode(401);
        as(TestTokens.expired("alice")).get("/api/runs").then().statusCode(401);
        as(TestTokens.signedWithAnotherKey("alice")).get("/api/runs").then().statusCode(401);

        // Alice's token still cancels her own run; the run stays hers.
        as(ALICE).post("/api/runs/" + runId + "/cancel").then().statusCode(202);
        as(ALICE).get("/api/runs/" + runId).then().statusCode(200).body("cancelRequested", equalTo(true));
    }
}
