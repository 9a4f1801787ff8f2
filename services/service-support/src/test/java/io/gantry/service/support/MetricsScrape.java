package io.gantry.service.support;

import static io.restassured.RestAssured.given;

import java.time.Duration;
import java.util.function.Predicate;

/** A service's {@code /q/metrics} in its Quarkus tests: read once, or polled until it shows what a test waits for. */
public final class MetricsScrape {

    private MetricsScrape() {
    }

    /** The metrics text (a 200 is required). */
    public static String read() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /**
     * The first metrics text {@code until} accepts, read every 100 ms for at most {@code wait}; else an
     * {@link AssertionError} saying that {@code what} never matched, with the last text.
     */
    public static String await(Duration wait, String what, Predicate<String> until) {
        long deadline = System.nanoTime() + wait.toNanos();
        String body;
        do {
            body = read();
            if (until.test(body)) {
                return body;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError(what + " never matched; last:\n" + body);
    }
}
