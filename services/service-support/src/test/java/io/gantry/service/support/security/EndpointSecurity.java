package io.gantry.service.support.security;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.List;

/**
 * The checks every service's security test makes, against the running test application: an endpoint answers 401
 * without a token, 403 for each token whose roles are not enough, and not 401/403 for the right one.
 */
public final class EndpointSecurity {

    private EndpointSecurity() {
    }

    public static RequestSpecification as(String token) {
        RequestSpecification r = given().contentType(ContentType.JSON);
        return token == null ? r : r.auth().oauth2(token);
    }

    /** {@code method path} (with {@code body}, may be null) needs one of {@code allowed}; {@code refused} get 403. */
    public static void requires(String method, String path, String body, List<String> refused, String allowed,
                                int allowedStatus) {
        call(null, method, path, body).then().statusCode(401);
        for (String t : refused) {
            call(t, method, path, body).then().statusCode(403);
        }
        call(allowed, method, path, body).then().statusCode(allowedStatus);
    }

    /** An admin-only endpoint: users and operators are refused. */
    public static void adminOnly(String method, String path, String body, int allowedStatus) {
        requires(method, path, body, List.of(TestTokens.user("alice"), TestTokens.operator()), TestTokens.admin(),
                allowedStatus);
    }

    /** A read for operators (and admins): users are refused. */
    public static void operatorRead(String path) {
        requires("GET", path, null, List.of(TestTokens.user("alice")), TestTokens.operator(), 200);
    }

    /** Pausing and resuming each of {@code channels} (pausable ones the service consumes) is for admins only. */
    public static void channelSwitchesNeedAnAdmin(String... channels) {
        for (String channel : channels) {
            adminOnly("POST", "/admin/channels/" + channel + "/pause", null, 200);
            adminOnly("POST", "/admin/channels/" + channel + "/resume", null, 200);
        }
        operatorRead("/admin/status");
    }

    /** What probes and scrapers call stays open. */
    public static void healthAndMetricsStayOpen() {
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
    }

    private static io.restassured.response.Response call(String token, String method, String path, String body) {
        RequestSpecification r = as(token);
        if (body != null) {
            r = r.body(body);
        }
        return r.request(method, path);
    }
}
