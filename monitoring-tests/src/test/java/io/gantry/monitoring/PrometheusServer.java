package io.gantry.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Debian's real Prometheus as a child process on a free port, with a given configuration file. */
final class PrometheusServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final int port;
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PrometheusServer(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    /** Starts Prometheus on {@code port} with {@code config} and waits until it is ready (30 s at most). */
    static PrometheusServer start(Path config, int port) throws Exception {
        Path binary = Tools.require(Tools.PROMETHEUS);
        Path data = Files.createTempDirectory("gantry-prometheus");
        Path log = data.resolve("prometheus.log");
        Process p = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + data.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusServer server = new PrometheusServer(p, log, port);
        try {
            server.awaitReady();
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
        return server;
    }

    int port() {
        return port;
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(log));
            }
            try {
                if (http.send(HttpRequest.newBuilder(base.resolve("/-/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("prometheus not ready in 30 s: " + Files.readString(log));
    }

    /** An instant query through {@code /api/v1/query}: the whole answer (status, data or errorType and error). */
    JsonNode query(String promql) throws Exception {
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    JsonNode get(String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
