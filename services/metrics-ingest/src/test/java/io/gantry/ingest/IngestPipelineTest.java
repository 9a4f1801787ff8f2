package io.gantry.ingest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * metrics-ingest against an exporter the test controls (100 ms interval in the test profile) and a real broker.
 * Each test describes its own nodes, so what the others leave behind (stale copies of their nodes) does not
 * meet its assertions.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(FakeExporterResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class IngestPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long GIB = 1024L * 1024 * 1024;

    /**
     * One node as kube-state-metrics, node-exporter and DCGM describe it, at scrape {@code n}: 4 cores, 8 GiB,
     * 2 GPUs; two pods request 2 cores, 1.5 GiB and 1 GPU in all (a pending pod without a node is not counted);
     * 2 GiB of 8 in use; GPUs at 100 % and 50 %; cores 0 and 1 busy, 2 and 3 idle; 10 s pass per scrape.
     */
    static String exposition(String node, long n, double cpuCapacity) {
        double time = 1_700_000_000 + 10.0 * n;
        String inst = "instance=\"" + node + ":9100\"";
        StringBuilder b = new StringBuilder();
        b.append("# HELP kube_node_status_capacity The capacity for different resources of a node.\n");
        b.append("# TYPE kube_node_status_capacity gauge\n");
        b.append("kube_node_status_capacity{node=\"").append(node).append("\",resource=\"cpu\",unit=\"core\"} ")
                .append(cpuCapacity).append('\n');
        b.append("kube_node_status_capacity{node=\"").append(node).append("\",resource=\"memory\",unit=\"byte\"} ")
                .append(8 * GIB).append('\n');
        b.append("kube_node_status_capacity{node=\"").append(node)
                .append("\",resource=\"nvidia_com_gpu\",unit=\"integer\"} 2\n");
        b.append("kube_node_status_capacity{node=\"").append(node).append("\",resource=\"pods\",unit=\"integer\"} 110\n");
        request(b, node, "train-a", "cpu", "1.5");
        request(b, node, "train-a", "memory", String.valueOf(GIB));
        request(b, node, "train-a", "nvidia_com_gpu", "1");
        request(b, node, "infer-b", "cpu", "0.5");
        request(b, node, "infer-b", "memory", "5.36870912e8");
        b.append("kube_pod_container_resource_requests{namespace=\"ml\",pod=\"pending-c\",node=\"\",resource=\"cpu\","
                + "unit=\"core\"} 3\n");
        b.append("# a comment, and a series this ingest ignores with every escape in a label value\n");
        b.append("http_requests_total{path=\"a\\\"b\\\\c\\nd\",} NaN 1700000000000\n");
        b.append("node_memory_MemTotal_bytes{").append(inst).append("} ").append(8 * GIB).append('\n');
        b.append("node_memory_MemAvailable_bytes{").append(inst).append("} ").append(6 * GIB).append('\n');
        b.append("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-0\",Hostname=\"").append(node).append("\"} 100\n");
        b.append("DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-1\",Hostname=\"").append(node).append("\"} 50\n");
        double[] busy = {1, 1, 0, 0};
        for (int cpu = 0; cpu < busy.length; cpu++) {
            b.append("node_cpu_seconds_total{cpu=\"").append(cpu).append("\",").append(inst).append(",mode=\"idle\"} ")
                    .append(10.0 * n * (1 - busy[cpu])).append('\n');
            b.append("node_cpu_seconds_total{cpu=\"").append(cpu).append("\",").append(inst).append(",mode=\"user\"} ")
                    .append(10.0 * n * busy[cpu]).append('\n');
        }
        b.append("node_time_seconds{").append(inst).append("} ").append(time).append('\n');
        return b.toString();
    }

    private static void request(StringBuilder b, String node, String pod, String resource, String value) {
        String unit = resource.equals("cpu") ? "core" : resource.equals("memory") ? "byte" : "integer";
        b.append("kube_pod_container_resource_requests{namespace=\"ml\",pod=\"").append(pod)
                .append("\",container=\"main\",node=\"").append(node).append("\",resource=\"").append(resource)
                .append("\",unit=\"").append(unit).append("\"} ").append(value).append('\n');
    }

    private static TopicProbe probe() {
        return new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers());
    }

    private static List<NodeMetrics> metricsOf(TopicProbe probe, String node, int count) {
        return probe.await(Topics.CLUSTER_METRICS, count, WAIT, s -> s.key().equals(node)).stream()
                .map(s -> EventCodec.decode(s.value(), NodeMetrics.class)).toList();
    }

    private static List<NodeMetrics> allMetricsOf(TopicProbe probe, String node) {
        return probe.readAll(Topics.CLUSTER_METRICS).stream().filter(s -> s.key().equals(node))
                .map(s -> EventCodec.decode(s.value(), NodeMetrics.class)).toList();
    }

    private static void assertMeasuredValues(NodeMetrics m) {
        assertEquals(new ResourceAmounts(2000, 4000, 8192), m.capacity());
        assertEquals(new ResourceAmounts(1000, 2000, 1536), m.allocated());
        assertEquals(0.25, m.memoryUtilisation());
        assertEquals(0.75, m.gpuUtilisation());
        assertEquals(2, m.runningPods());
        assertTrue(m.schedulable());
        assertEquals("simulated-cluster", m.source());
    }

    @Test
    void publishesWhatTheExporterSaysAndACpuRateOnlyFromTwoScrapes() {
        FakeExporterResource.serve(n -> exposition("exact-1", n, 4));
        try (TopicProbe probe = probe()) {
            List<NodeMetrics> seen = metricsOf(probe, "exact-1", 2);
            NodeMetrics first = seen.get(0);
            NodeMetrics second = seen.get(1);
            assertMeasuredValues(first);
            assertFalse(first.stale());
            assertNull(first.cpuUtilisation(), "one scrape gives no rate: CPU utilisation must be unknown, not made up");
            assertMeasuredValues(second);
            assertFalse(second.stale());
            assertEquals(0.5, second.cpuUtilisation(), "2 of 4 cores busy");
        }
    }

    @Test
    void anOutagePublishesOnlyStaleLastValuesTurnsReadinessDownAndRecovers() {
        FakeExporterResource.serve(n -> exposition("out-1", n, 4));
        awaitReadiness(200);
        try (TopicProbe probe = probe()) {
            metricsOf(probe, "out-1", 2);
            FakeExporterResource.fail(500);
            awaitReadiness(503);
            FakeExporterResource.serve(n -> "<html><body>Bad gateway</body></html>");
            awaitFailures("unparsable");
            given().get("/ingest/status").then().statusCode(200);
            FakeExporterResource.serve(n -> exposition("out-1", n, 4));
            awaitReadiness(200);
            // After recovery a fresh event follows the stale ones.
            long deadline = System.nanoTime() + WAIT.toNanos();
            List<NodeMetrics> all;
            do {
                all = allMetricsOf(probe, "out-1");
            } while (!freshAfterStale(all) && System.nanoTime() < deadline);
            assertTrue(freshAfterStale(all), "no fresh event after the outage: " + all);

            int firstStale = indexOfFirstStale(all);
            NodeMetrics lastFresh = all.get(firstStale - 1);
            int i = firstStale;
            for (; all.get(i).stale(); i++) {
                NodeMetrics stale = all.get(i);
                // The outage publishes exactly what was last measured, marked stale: nothing new, nothing guessed.
                assertEquals(lastFresh.capacity(), stale.capacity());
                assertEquals(lastFresh.allocated(), stale.allocated());
                assertEquals(lastFresh.cpuUtilisation(), stale.cpuUtilisation());
                assertEquals(lastFresh.gpuUtilisation(), stale.gpuUtilisation());
                assertEquals(lastFresh.memoryUtilisation(), stale.memoryUtilisation());
            }
            assertTrue(i - firstStale >= 2, "stale copies at each failed attempt: " + (i - firstStale));
            assertMeasuredValues(all.get(i));
        }
        given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void unusableSeriesAreDeadLetteredOnceWithTheirReasonAndTheNextGoodScrapeIsPublished() {
        String malformed = "kube_node_status_capacity{node=\"dlq-good\",resource=\"cpu\" 8\n";
        FakeExporterResource.serve(n -> exposition("dlq-good", n, 4) + exposition("dlq-bad", n, -4) + malformed);
        String dlq = Topics.deadLetter("metrics-ingest");
        try (TopicProbe probe = probe()) {
            TopicProbe.Seen bad = probe.await(dlq, 1, WAIT, s -> s.key().equals("dlq-bad")).get(0);
            assertTrue(bad.headers().get("dead-letter-reason").contains("capacity.cpuMilli: must be at least 0, was -4000"),
                    bad.toString());
            assertTrue(bad.value().contains("kube_node_status_capacity{node=\"dlq-bad\",resource=\"cpu\",unit=\"core\"} -4.0"),
                    "the dead letter keeps the source lines: " + bad.value());
            assertTrue(bad.headers().get("dead-letter-source").endsWith("/metrics"), bad.toString());
            TopicProbe.Seen line = probe.await(dlq, 1, WAIT, s -> s.key().equals("line")
                    && s.value().equals(malformed.strip())).get(0);
            assertTrue(line.headers().get("dead-letter-reason").contains("expected ',' or '}'"), line.toString());

            // The good node keeps flowing; several scrapes later the bad node is still dead-lettered only once.
            metricsOf(probe, "dlq-good", 4);
            assertEquals(1, probe.readAll(dlq).stream().filter(s -> s.key().equals("dlq-bad")).count());
            assertTrue(allMetricsOf(probe, "dlq-bad").isEmpty(), "an invalid node is never published");

            FakeExporterResource.serve(n -> exposition("dlq-bad", n, 4));
            NodeMetrics repaired = metricsOf(probe, "dlq-bad", 1).get(0);
            assertMeasuredValues(repaired);
            assertFalse(repaired.stale());
        }
    }

    @Test
    void healthMetricsAndOpenApiAreServed() {
        FakeExporterResource.serve(n -> exposition("health-1", n, 4));
        awaitReadiness(200);
        given().get("/q/openapi").then().statusCode(200);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("gantry_ingest_scrapes_total"), "scrape counter is exported");
        assertTrue(metrics.contains("gantry_ingest_scrape_failures_total"), "failure counter is exported");
        given().get("/admin/status").then().statusCode(200);
    }

    private static boolean freshAfterStale(List<NodeMetrics> all) {
        int first = indexOfFirstStale(all);
        return first > 0 && all.subList(first, all.size()).stream().anyMatch(m -> !m.stale());
    }

    private static int indexOfFirstStale(List<NodeMetrics> all) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).stale()) {
                return i;
            }
        }
        return -1;
    }

    private static void awaitReadiness(int status) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int last;
        do {
            last = given().get("/q/health/ready").then().extract().statusCode();
            if (last == status) {
                return;
            }
            sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("readiness stayed " + last + ", expected " + status + ": "
                + given().get("/q/health/ready").asString());
    }

    private static void awaitFailures(String kind) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            String line = given().get("/q/metrics").asString().lines()
                    .filter(l -> l.startsWith("gantry_ingest_scrape_failures_total") && l.contains("kind=\"" + kind + "\""))
                    .findFirst().orElse("x 0");
            if (Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)) > 0) {
                return;
            }
            sleep(50);
        }
        throw new AssertionError("no " + kind + " failure counted");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
