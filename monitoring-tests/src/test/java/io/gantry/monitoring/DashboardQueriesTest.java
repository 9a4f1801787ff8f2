package io.gantry.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * grafana/dashboards/: the five dashboards exist, are wired to the provisioned datasource, and every panel's PromQL
 * is accepted by a real Prometheus started with the project's own prometheus.yml (and so its alerts.yml).
 * This proves each expression parses and evaluates; it does not prove it returns data (that needs the running
 * system scraped, which this test does not start).
 */
class DashboardQueriesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DASHBOARDS = Tools.ROOT.resolve("grafana/dashboards");

    record Query(String dashboard, String panel, String expr) {
    }

    static List<JsonNode> dashboards() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(DASHBOARDS)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(JSON.readTree(f.toFile()));
            }
        }
        return out;
    }

    static List<Query> queries() throws IOException {
        List<Query> out = new ArrayList<>();
        for (JsonNode d : dashboards()) {
            for (JsonNode p : d.path("panels")) {
                for (JsonNode t : p.path("targets")) {
                    out.add(new Query(d.path("title").asText(), p.path("title").asText(), t.path("expr").asText()));
                }
            }
        }
        return out;
    }

    @Test
    void theFiveDashboardsUseTheProvisionedDatasourceAndEveryPanelHasAQuery() throws IOException {
        String datasource = Files.readString(Tools.ROOT.resolve("grafana/provisioning/datasources/prometheus.yml"));
        Set<String> titles = new HashSet<>();
        Set<String> uids = new HashSet<>();
        for (JsonNode d : dashboards()) {
            titles.add(d.path("title").asText());
            assertTrue(uids.add(d.path("uid").asText()), "duplicate uid " + d.path("uid"));
            assertFalse(d.path("description").asText().isBlank(), d.path("title") + " has no description");
            assertTrue(d.path("panels").size() > 0, d.path("title") + " has no panel");
            for (JsonNode p : d.path("panels")) {
                String uid = p.path("datasource").path("uid").asText();
                assertTrue(datasource.contains("uid: " + uid), p.path("title") + ": datasource " + uid
                        + " is not provisioned");
                assertTrue(p.path("targets").size() > 0, p.path("title") + " has no query");
                p.path("targets").forEach(t -> assertFalse(t.path("expr").asText().isBlank(), p.path("title") + ""));
            }
        }
        assertEquals(Set.of("Gantry / Cluster", "Gantry / Scheduler", "Gantry / Fairness", "Gantry / Learner",
                "Gantry / Pipeline"), titles);
    }

    @Test
    @Timeout(120)
    void everyPanelQueryIsAcceptedByARealPrometheusRunningTheProjectsConfiguration() throws Exception {
        Path prometheus = Tools.require(Tools.PROMETHEUS);
        Path data = Files.createTempDirectory("gantry-prometheus-dashboards");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = data.resolve("prometheus.log");
        Process p = new ProcessBuilder(prometheus.toString(),
                "--config.file=" + Tools.ROOT.resolve("prometheus/prometheus.yml"),
                "--storage.tsdb.path=" + data.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            URI base = URI.create("http://127.0.0.1:" + port);
            awaitReady(http, base, p, log);
            List<String> refused = new ArrayList<>();
            List<Query> all = queries();
            for (Query q : all) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/query?query="
                        + URLEncoder.encode(q.expr(), StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10))
                        .build(), HttpResponse.BodyHandlers.ofString());
                JsonNode body = JSON.readTree(r.body());
                if (!"success".equals(body.path("status").asText())) {
                    refused.add(q + ": " + body.path("errorType").asText() + ": " + body.path("error").asText());
                }
            }
            assertTrue(all.size() >= 20, "queries: " + all.size());
            assertTrue(refused.isEmpty(), String.join("\n", refused));
            // The rule file the configuration names was loaded with it.
            JsonNode rules = JSON.readTree(http.send(HttpRequest.newBuilder(base.resolve("/api/v1/rules")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(4, rules.path("data").path("groups").get(0).path("rules").size(), rules.toString());
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static void awaitReady(HttpClient http, URI base, Process p, Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
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
}
