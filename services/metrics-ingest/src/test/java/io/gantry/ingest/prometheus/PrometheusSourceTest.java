package io.gantry.ingest.prometheus;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * metrics-ingest with {@code gantry.ingest.source=prometheus} against a real Prometheus (Debian's package) scraping a
 * real node-exporter on this machine, publishing to the real broker. This machine is not a Kubernetes node and has no
 * GPU, so the figures kube-state-metrics and DCGM would give must stay null: nothing may be filled in.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(value = RealPrometheusResource.class, restrictToAnnotatedClass = true)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class PrometheusSourceTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Memory moves while the test runs (other builds share the machine): 5 % of it is the tolerance. */
    private static final double TOLERANCE = 0.05;

    private static RealPrometheus prometheus() {
        RealPrometheus p = RealPrometheusResource.running();
        // RealPrometheusResource already failed the run under CI=true when the binaries are missing.
        assumeTrue(p != null, "prometheus / prometheus-node-exporter not installed (apt-get install prometheus"
                + " prometheus-node-exporter)");
        return p;
    }

    private static TopicProbe probe() {
        return new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers());
    }

    private static List<NodeMetrics> allOf(TopicProbe probe, String node) {
        return probe.readAll(Topics.CLUSTER_METRICS).stream().filter(s -> s.key().equals(node))
                .map(s -> EventCodec.decode(s.value(), NodeMetrics.class)).toList();
    }

    /** Waits for a fresh event of {@code node} published after {@code after}, with a CPU rate (≥ 2 scrapes). */
    private static NodeMetrics awaitFresh(TopicProbe probe, String node, Instant after) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (NodeMetrics m : allOf(probe, node)) {
                if (!m.stale() && m.occurredAt().isAfter(after) && m.cpuUtilisation() != null) {
                    return m;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no fresh NodeMetrics for " + node + " after " + after + "; prometheus log:\n"
                + RealPrometheusResource.running().log("prometheus.log"));
    }

    /** What a NodeMetrics read from node-exporter alone must be: this machine's memory, nothing invented. */
    private static void assertMachine(NodeMetrics m) throws IOException {
        List<Long> mem = RealPrometheus.memTotalAndAvailableKb();
        double totalMib = mem.get(0) / 1024.0;
        double used = 1.0 - (double) mem.get(1) / mem.get(0);
        assertEquals(totalMib, m.capacity().memoryMib(), totalMib * TOLERANCE, "memory capacity vs /proc/meminfo");
        assertNotNull(m.memoryUtilisation());
        assertEquals(used, m.memoryUtilisation(), TOLERANCE, "memory used vs /proc/meminfo");
        assertEquals(Runtime.getRuntime().availableProcessors() * 1000L, m.capacity().cpuMilli(),
                "CPUs counted from node_cpu_seconds_total");
        assertTrue(m.cpuUtilisation() >= 0 && m.cpuUtilisation() <= 1, "cpu " + m.cpuUtilisation());
        // No DCGM exporter, no kube-state-metrics here: unknown stays unknown.
        assertNull(m.gpuUtilisation(), "no GPU series: GPU utilisation must be null");
        assertEquals(0, m.capacity().gpuMilli(), "no GPU series: no GPUs counted");
        assertNull(m.allocated(), "no kube-state-metrics: allocated is unknown");
        assertNull(m.runningPods(), "no kube-state-metrics: running pods unknown");
        assertEquals("prometheus", m.source());
    }

    @Test
    @Timeout(120)
    void publishesThisMachinesMemoryFromARealPrometheus() throws Exception {
        RealPrometheus p = prometheus();
        try (TopicProbe probe = probe()) {
            NodeMetrics m = awaitFresh(probe, p.nodeName(), Instant.EPOCH);
            assertFalse(m.stale());
            assertMachine(m);
        }
        given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    @Timeout(180)
    void stoppingPrometheusDegradesToStaleLastValuesAndRestartingRecovers() throws Exception {
        RealPrometheus p = prometheus();
        String node = p.nodeName();
        try (TopicProbe probe = probe()) {
            awaitFresh(probe, node, Instant.EPOCH);
            awaitReadiness(200);

            Instant stoppedAt = Instant.now();
            p.stopPrometheus();
            awaitReadiness(503);
            // Several failed attempts, each publishing the node as stale.
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (staleSince(allOf(probe, node), stoppedAt) < 3 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            given().get("/ingest/status").then().statusCode(200); // still serving: nothing crashed
            String error = given().get("/ingest/status").then().extract().path("lastError");
            assertNotNull(error, "the status says why");

            Instant restartedAt = Instant.now();
            p.startPrometheus();
            awaitReadiness(200);
            NodeMetrics recovered = awaitFresh(probe, node, restartedAt);
            assertMachine(recovered);

            List<NodeMetrics> all = allOf(probe, node);
            assertTrue(staleSince(all, stoppedAt) >= 3, "stale copies at each failed attempt: " + all);
            for (int i = 1; i < all.size(); i++) {
                NodeMetrics m = all.get(i);
                if (m.stale()) {
                    // The outage republishes exactly the last measured values, marked stale: nothing guessed.
                    NodeMetrics lastFresh = lastFreshBefore(all, i);
                    assertEquals(lastFresh.capacity(), m.capacity());
                    assertEquals(lastFresh.cpuUtilisation(), m.cpuUtilisation());
                    assertEquals(lastFresh.memoryUtilisation(), m.memoryUtilisation());
                    assertEquals(lastFresh.gpuUtilisation(), m.gpuUtilisation());
                    assertTrue(m.occurredAt().isAfter(stoppedAt.minusSeconds(1)) || !m.stale(),
                            "stale only around the outage: " + m);
                }
            }
        }
    }

    private static long staleSince(List<NodeMetrics> all, Instant since) {
        return all.stream().filter(m -> m.stale() && m.occurredAt().isAfter(since)).count();
    }

    private static NodeMetrics lastFreshBefore(List<NodeMetrics> all, int index) {
        for (int i = index - 1; i >= 0; i--) {
            if (!all.get(i).stale()) {
                return all.get(i);
            }
        }
        throw new AssertionError("a stale event with no fresh one before it: " + all.get(index));
    }

    private static void awaitReadiness(int status) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int last = -1;
        while (System.nanoTime() < deadline) {
            last = given().get("/q/health/ready").then().extract().statusCode();
            if (last == status) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("readiness stayed " + last + ", expected " + status);
    }
}
