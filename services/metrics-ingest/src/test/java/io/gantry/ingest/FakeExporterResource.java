package io.gantry.ingest;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * An exporter the test controls: an HTTP server (JDK) answering {@code GET /metrics} with the status and the
 * exposition the test sets. The body is a function of the request number, so counters can advance per scrape.
 */
public class FakeExporterResource implements QuarkusTestResourceLifecycleManager {

    private static HttpServer server;
    private static final AtomicLong requests = new AtomicLong();
    private static volatile int status = 503;
    private static volatile LongFunction<String> body = n -> "not set up yet";

    /** Answers every following scrape with 200 and {@code body.apply(requestNumber)}. */
    public static void serve(LongFunction<String> newBody) {
        body = newBody;
        status = 200;
    }

    /** Answers every following scrape with {@code httpStatus} and a short text. */
    public static void fail(int httpStatus) {
        body = n -> "exporter broken";
        status = httpStatus;
    }

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/metrics", exchange -> {
            int code = status;
            byte[] bytes = body.apply(requests.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(code, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return Map.of("gantry.ingest.source-url",
                "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
