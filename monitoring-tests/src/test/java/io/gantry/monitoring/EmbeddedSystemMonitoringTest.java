package io.gantry.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobProgress;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.events.TuningOptions;
import io.gantry.kafka.FreePorts;
import io.gantry.kafka.TopicProbe;
import io.gantry.system.GantryProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The embedded system as a user runs it (the broker and the five services as processes, the simulated cluster in
 * pod-dispatcher), scraped by Debian's real Prometheus with the project's own prometheus.yml and alerts.yml, while
 * jobs flow: every panel of every dashboard must return data through {@code /api/v1/query}, and the README's
 * metrics table must match each service's {@code /q/metrics}.
 *
 * <p>The configuration is the project's file with one change: the target addresses. It names the docker-compose
 * hosts ({@code metrics-ingest:8081}, ...); here each target becomes {@code 127.0.0.1} and the port the test gave
 * that service (free ports, since other Gantry instances may hold 8081-8085 on the same machine). Prometheus 2.42
 * has no environment expansion or include for scrape configs, so this is the one thing the test rewrites. The
 * exporters of a real cluster (node-exporter, DCGM, kube-state-metrics) are absent here: their targets stay down,
 * and the panels that use their metric names are fed by the simulated cluster's exposition, which uses the same names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedSystemMonitoringTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Jobs of the background trickle keep every rate and histogram moving while Prometheus scrapes. */
    private static final long TRICKLE_EVERY_MS = 400;

    private GantryProcesses system;
    private PrometheusServer prometheus;
    private TopicProbe probe;
    private ScheduledExecutorService trickle;
    private final AtomicInteger trickled = new AtomicInteger();

    private static JobSubmitted job(String id, String user, int tasks, long gpuMilli, double durationS) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, user, id, null, tasks,
                new ResourceAmounts(gpuMilli, 4000, 16384), null, null, durationS, null);
    }

    @BeforeAll
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void startTheSystemAndPrometheusAndSubmitJobs() throws Exception {
        Tools.require(Tools.PROMETHEUS);
        system = new GantryProcesses();
        system.startBroker();
        system.startServices(Map.ofEntries(
                Map.entry("GANTRY_SIMULATED_CLUSTER_NODES", "3"),
                Map.entry("GANTRY_SIMULATED_CLUSTER_SPEEDUP", "1000"),
                // The tuner's Pollux profiles are read from ../shared beside the checkout.
                Map.entry("GANTRY_SHARED_DIR", Tools.ROOT.resolve("../shared").normalize().toString()),
                // The sac policy with its online learner (the Learner dashboard), learning from the first few
                // transitions and checking a candidate every 20 updates, so its series move within the test.
                Map.entry("GANTRY_SCHEDULER_POLICY", "sac"),
                Map.entry("GANTRY_SCHEDULER_LEARNER_UPDATE_INTERVAL", "200ms"),
                Map.entry("GANTRY_SCHEDULER_LEARNER_MIN_TRANSITIONS", "16"),
                Map.entry("GANTRY_SCHEDULER_LEARNER_BATCH_SIZE", "16"),
                Map.entry("GANTRY_SCHEDULER_LEARNER_UPDATES_PER_CHECK", "20"),
                Map.entry("GANTRY_SCHEDULER_LEARNER_CHECK_MIN_JOBS", "15")));
        int prometheusPort = FreePorts.one();
        prometheus = PrometheusServer.start(embeddedConfiguration(prometheusPort), prometheusPort);

        probe = new TopicProbe(system.bootstrap());
        // Two jobs that run for the whole test (1,000 simulated hours at 1000x): pods hold requests on the nodes.
        send(job("long-1", "user-0", 1, 1000, 3_600_000));
        send(job("long-2", "user-1", 1, 1000, 3_600_000));
        // A gang of three whole nodes: it waits (insufficient_gpu) whenever other jobs hold GPUs on any node.
        send(job("whole-cluster-gang", "user-2", 3, 8000, 600));
        // More GPUs per task than a node has: the tuner rejects it. More than the cluster: the scheduler does.
        send(job("too-big-for-a-node", "user-3", 1, 16000, 60));
        send(job("too-big-for-the-cluster", "user-3", 4, 8000, 60));
        // A job of a model with a Pollux profile, which the tuner re-shapes (its changes are counted).
        send(new JobSubmitted(Events.newId(), 1, Instant.now(), "tuned-cifar10", "user-1", "tuned-cifar10", "cifar10",
                8, new ResourceAmounts(1000, 4000, 16384), 256, null, 600.0, new TuningOptions(true, null, 1024, null)));
        // A decision for a node the cluster does not have, as a faulty scheduler might write: the dispatcher
        // refuses it and the job fails (cause unknown_node).
        SchedulingDecision stray = new SchedulingDecision(Events.newId(), 1, Instant.now(), "stray-decision", "user-3",
                List.of("no-such-node"), new ResourceAmounts(1000, 4000, 16384), 60.0, Instant.now(), "kube-default",
                "test");
        probe.send(Topics.SCHEDULING_DECISIONS, stray.jobId(), EventCodec.encode(stray));
        // A redelivered event (a duplicate) and an unreadable one (a dead letter).
        JobSubmitted first = job("short-0", "user-0", 1, 1000, 60);
        send(first);
        probe.send(Topics.JOBS_SUBMITTED, first.jobId(), EventCodec.encode(first));
        probe.send(Topics.JOBS_SUBMITTED, "garbage", "{ not an event");
        trickle = Executors.newSingleThreadScheduledExecutor();
        trickle.scheduleAtFixedRate(() -> {
            int i = trickled.incrementAndGet();
            send(job("trickle-" + i, "user-" + (i % 4), i % 5 == 0 ? 2 : 1, i % 3 == 0 ? 500 : 1000, 60 + (i % 6) * 100));
            // What a training job's runner writes once a second (the trace jobs above do not train): the Jobs
            // dashboard's gantry_job_* series come from these, through metrics-ingest.
            reportTraining("long-1", "user-0", i);
        }, 0, TRICKLE_EVERY_MS, TimeUnit.MILLISECONDS);

        // Every path above has happened once the two rejections, the dead letter and completions are on the topics.
        probe.await(Topics.JOBS_LIFECYCLE, 2, Duration.ofSeconds(120), s -> s.value().contains("JobRejected"));
        probe.await(Topics.JOBS_LIFECYCLE, 5, Duration.ofSeconds(120), s -> s.value().contains("JobCompleted"));
        probe.await(Topics.deadLetter("job-tuner"), 1, Duration.ofSeconds(60), s -> s.key().equals("garbage"));
        probe.await(Topics.JOBS_LIFECYCLE, 1, Duration.ofSeconds(60), s -> s.value().contains("JobFailed"));
        probe.await(Topics.JOBS_TUNED, 1, Duration.ofSeconds(60), s -> s.key().equals("tuned-cifar10"));
    }

    private void reportTraining(String jobId, String user, int tick) {
        double progress = Math.min(1.0, tick / 1000.0);
        double loss = 2.0 / (1 + tick);
        double accuracy = Math.min(0.99, 0.5 + tick / 200.0);
        JobProgress p = new JobProgress(Events.newId(), 1, Instant.now(), jobId, user, progress, 1 + tick / 10, loss,
                accuracy, 800.0 + tick % 7, 10L * tick, loss, 1.1 * loss, accuracy);
        probe.send(Topics.JOBS_LIFECYCLE, jobId, EventCodec.encode(p));
    }

    private void send(JobSubmitted j) {
        probe.send(Topics.JOBS_SUBMITTED, j.jobId(), EventCodec.encode(j));
    }

    /** prometheus/prometheus.yml and alerts.yml, copied with the Gantry targets' addresses set to this system's. */
    private Path embeddedConfiguration(int prometheusPort) throws Exception {
        Path dir = Files.createTempDirectory("gantry-prometheus-config");
        ObjectNode config = (ObjectNode) YAML.readTree(Tools.ROOT.resolve("prometheus/prometheus.yml").toFile());
        Map<String, Integer> ports = new LinkedHashMap<>();
        GantryProcesses.SERVICES.forEach(s -> ports.put(s, system.port(s)));
        Set<String> rewritten = new TreeSet<>();
        for (JsonNode job : config.path("scrape_configs")) {
            for (JsonNode sc : job.path("static_configs")) {
                ArrayNode targets = (ArrayNode) sc.path("targets");
                for (int i = 0; i < targets.size(); i++) {
                    String host = targets.get(i).asText().replaceFirst(":\\d+$", "");
                    Integer port = ports.get(host);
                    if (job.path("job_name").asText().equals("prometheus")) {
                        port = prometheusPort;
                    }
                    if (port != null) {
                        targets.set(i, "127.0.0.1:" + port);
                        rewritten.add(job.path("job_name").asText());
                    }
                }
            }
        }
        Set<String> expected = new TreeSet<>(GantryProcesses.SERVICES);
        expected.add("simulated-cluster");
        expected.add("prometheus");
        assertEquals(expected, rewritten, "prometheus.yml no longer names the services' hosts as its targets");
        YAML.writeValue(dir.resolve("prometheus.yml").toFile(), config);
        for (JsonNode ruleFile : config.path("rule_files")) {
            Files.copy(Tools.ROOT.resolve("prometheus").resolve(ruleFile.asText()), dir.resolve(ruleFile.asText()));
        }
        return dir.resolve("prometheus.yml");
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (trickle != null) {
            trickle.shutdownNow();
        }
        if (probe != null) {
            probe.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
        if (system != null) {
            system.close();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void prometheusScrapesEveryServiceAndTheSimulatedClusterWithTheProjectsConfiguration() throws Exception {
        Set<String> jobs = new TreeSet<>(GantryProcesses.SERVICES);
        jobs.add("simulated-cluster");
        Map<String, String> health = new TreeMap<>();
        GantryProcesses.await(Duration.ofSeconds(90), "every Gantry target up", () -> {
            health.clear();
            for (JsonNode t : prometheus.get("/api/v1/targets?state=active").path("data").path("activeTargets")) {
                String job = t.path("labels").path("job").asText();
                if (jobs.contains(job)) {
                    health.put(job, t.path("health").asText() + " " + t.path("lastError").asText());
                }
            }
            return health.keySet().equals(jobs) && health.values().stream().allMatch(h -> h.startsWith("up"));
        });
        // The service targets carry the label the GantryServiceDown alert selects on.
        JsonNode up = prometheus.query("up{component=\"gantry\"} == 1").path("data").path("result");
        assertEquals(GantryProcesses.SERVICES.size(), up.size(), up.toString());
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyPanelQueryOfEveryDashboardReturnsDataFromTheScrapedSystem() throws Exception {
        List<Dashboards.Query> queries = Dashboards.queries();
        Map<Dashboards.Query, String> failing = new LinkedHashMap<>();
        // rate() and increase() need two scrapes (15 s apart in the project's configuration) after a series appears.
        try {
            GantryProcesses.await(Duration.ofSeconds(240), "data for every panel query", () -> {
                failing.clear();
                for (Dashboards.Query q : queries) {
                    String problem = problem(prometheus.query(q.expr()));
                    if (problem != null) {
                        failing.put(q, problem);
                    }
                }
                return failing.isEmpty();
            });
        } catch (AssertionError timedOut) {
            List<String> lines = new ArrayList<>();
            failing.forEach((q, p) -> lines.add(q + "\n    -> " + p));
            throw new AssertionError(failing.size() + " of " + queries.size() + " panel queries return no data:\n"
                    + String.join("\n", lines), timedOut);
        }
        assertTrue(queries.size() >= 42, "panel queries: " + queries.size());
    }

    /** Null when the answer has at least one series or scalar with a number; else what is wrong with it. */
    private static String problem(JsonNode answer) {
        if (!"success".equals(answer.path("status").asText())) {
            return answer.path("errorType").asText() + ": " + answer.path("error").asText();
        }
        JsonNode data = answer.path("data");
        List<JsonNode> values = new ArrayList<>();
        if (data.path("resultType").asText().equals("scalar")) {
            values.add(data.path("result"));
        } else {
            data.path("result").forEach(series -> values.add(series.path("value")));
        }
        if (values.isEmpty()) {
            return "no series";
        }
        for (JsonNode v : values) {
            double x = Double.parseDouble(v.get(1).asText());
            if (Double.isFinite(x)) {
                return null;
            }
        }
        return "only NaN or infinite values: " + data.path("result");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theReadmeMetricsTableMatchesWhatEachServiceExposes() throws Exception {
        ReadmeMetricsTable table = ReadmeMetricsTable.parse(Files.readString(Tools.ROOT.resolve("README.md")),
                GantryProcesses.SERVICES);
        Map<String, MetricsExposition> byService = new TreeMap<>();
        for (String s : GantryProcesses.SERVICES) {
            byService.put(s, MetricsExposition.parse(system.get(s, "/q/metrics")));
        }
        List<String> differences = table.differences(byService);
        assertTrue(differences.isEmpty(), "README metrics table vs /q/metrics:\n" + String.join("\n", differences));
        assertTrue(table.rows().size() >= 30, "rows: " + table.rows().size());
    }
}
