package io.gantry.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.kafka.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * grafana/dashboards/: the six dashboards exist, are wired to the provisioned datasource, and every panel's PromQL
 * is accepted by a real Prometheus started with the project's own prometheus.yml (and so its alerts.yml).
 * That each query also returns data from the running system is {@link EmbeddedSystemMonitoringTest}'s part.
 */
class DashboardQueriesTest {

    @Test
    void theSixDashboardsUseTheProvisionedDatasourceAndEveryPanelHasAQuery() throws IOException {
        String datasource = Files.readString(Tools.ROOT.resolve("grafana/provisioning/datasources/prometheus.yml"));
        Set<String> titles = new HashSet<>();
        Set<String> uids = new HashSet<>();
        for (JsonNode d : Dashboards.all()) {
            titles.add(d.path("title").asText());
            assertTrue(uids.add(d.path("uid").asText()), "duplicate uid " + d.path("uid"));
            assertFalse(d.path("description").asText().isBlank(), d.path("title") + " has no description");
            assertTrue(d.path("panels").size() > 0, d.path("title") + " has no panel");
            Set<Integer> ids = new HashSet<>();
            for (JsonNode p : d.path("panels")) {
                assertTrue(ids.add(p.path("id").asInt()), d.path("title") + ": duplicate panel id " + p.path("id"));
                String uid = p.path("datasource").path("uid").asText();
                assertTrue(datasource.contains("uid: " + uid), p.path("title") + ": datasource " + uid
                        + " is not provisioned");
                assertTrue(p.path("targets").size() > 0, p.path("title") + " has no query");
                p.path("targets").forEach(t -> assertFalse(t.path("expr").asText().isBlank(), p.path("title") + ""));
            }
        }
        assertEquals(Set.of("Gantry / Cluster", "Gantry / Scheduler", "Gantry / Fairness", "Gantry / Learner",
                "Gantry / Pipeline", "Gantry / Jobs"), titles);
    }

    @Test
    void theJobsDashboardHasATrainingProgressPanelPerJobAndUser() throws IOException {
        List<Dashboards.Query> jobs = Dashboards.queries().stream()
                .filter(q -> q.dashboard().equals("Gantry / Jobs")).toList();
        Dashboards.Query progress = jobs.stream().filter(q -> q.panel().equals("Training progress")).findFirst()
                .orElseThrow(() -> new AssertionError("no Training progress panel: " + jobs));
        assertTrue(progress.expr().contains("gantry_job_progress") && progress.expr().contains("job_id")
                && progress.expr().contains("user"), progress.toString());
        for (String metric : List.of("gantry_job_epoch", "gantry_job_loss", "gantry_job_accuracy",
                "gantry_job_samples_per_second")) {
            assertTrue(jobs.stream().anyMatch(q -> q.expr().contains(metric)), metric + " has no panel: " + jobs);
        }
    }

    @Test
    @Timeout(120)
    void everyPanelQueryIsAcceptedByARealPrometheusRunningTheProjectsConfiguration() throws Exception {
        try (PrometheusServer prometheus = PrometheusServer.start(Tools.ROOT.resolve("prometheus/prometheus.yml"),
                FreePorts.one())) {
            List<String> refused = new ArrayList<>();
            List<Dashboards.Query> all = Dashboards.queries();
            for (Dashboards.Query q : all) {
                JsonNode body = prometheus.query(q.expr());
                if (!"success".equals(body.path("status").asText())) {
                    refused.add(q + ": " + body.path("errorType").asText() + ": " + body.path("error").asText());
                }
            }
            assertTrue(all.size() >= 20, "queries: " + all.size());
            assertTrue(refused.isEmpty(), String.join("\n", refused));
            // The rule file the configuration names was loaded with it.
            JsonNode rules = prometheus.get("/api/v1/rules");
            assertEquals(4, rules.path("data").path("groups").get(0).path("rules").size(), rules.toString());
        }
    }
}
