package io.gantry.dispatcher;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.gantry.events.Limits;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The dispatcher on a real broker, with the test profile's 4 simulated nodes at speedup 1000. Each test uses
 * its own nodes so their allocations do not meet: 01 and 02 short jobs, 03 the exposition, 04 capacity.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(PriorLifecycleResource.class)
// The restart test first: its orphan's run is on the wall clock from before the app started, so it must not wait
// behind the other tests (it failed when they and a slow start took longer than the orphan's run).
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class DispatcherPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final double MIB = 1024.0 * 1024.0;
    /** Far longer than any test: the longest run the contract allows, at speedup 1000 almost nine hours of wall time. */
    private static final double FOREVER_S = Limits.MAX_DURATION_S;

    private static SchedulingDecision decision(String jobId, List<String> nodes, ResourceAmounts perTask, Double durationS) {
        return new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "alice", nodes, perTask, durationS,
                Instant.parse("2026-01-02T03:04:05Z"), "kube-default", "v7");
    }

    private static TopicProbe probe() {
        return new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers());
    }

    private static List<LifecycleEvent> lifecycleOf(TopicProbe probe, String jobId, int count) {
        return probe.await(Topics.JOBS_LIFECYCLE, count, WAIT, s -> s.key().equals(jobId)).stream()
                .map(s -> EventCodec.decode(s.value(), LifecycleEvent.class)).toList();
    }

    @Test
    void malformedAndInvalidDecisionsAreDeadLetteredAndTheNextGoodOneStartsAndCompletes() {
        String dlq = Topics.deadLetter("pod-dispatcher");
        SchedulingDecision noNodes = decision("bad-2", List.of(), new ResourceAmounts(1000, 1000, 1024), 60.0);
        SchedulingDecision good = decision("good-1", List.of("sim-node-01", "sim-node-01"),
                new ResourceAmounts(1000, 2000, 4096), 60.0);
        try (TopicProbe probe = probe()) {
            probe.send(Topics.SCHEDULING_DECISIONS, "bad-1", "{\"type\":\"SchedulingDecision\",\"jobId\":");
            probe.send(Topics.SCHEDULING_DECISIONS, "bad-2", EventCodec.encode(noNodes));
            probe.send(Topics.SCHEDULING_DECISIONS, "bad-3", EventCodec.encode(
                    decision("bad-3", List.of("sim-node-01"), new ResourceAmounts(0, 100, 100), -5.0)));
            probe.send(Topics.SCHEDULING_DECISIONS, "good-1", EventCodec.encode(good));

            List<TopicProbe.Seen> dead = probe.await(dlq, 3, WAIT, s -> s.key().startsWith("bad-"));
            Map<String, String> reasons = new HashMap<>();
            dead.forEach(s -> reasons.put(s.key(), s.headers().get("dead-letter-reason")));
            assertTrue(reasons.get("bad-1").contains("malformed JSON"), reasons.toString());
            assertTrue(reasons.get("bad-2").contains("nodes: must not be empty"), reasons.toString());
            assertTrue(reasons.get("bad-3").contains("durationS: must be a finite number"), reasons.toString());

            List<LifecycleEvent> life = lifecycleOf(probe, "good-1", 2);
            JobStarted started = assertInstanceOf(JobStarted.class, life.get(0));
            assertEquals(List.of("sim-node-01", "sim-node-01"), started.nodes());
            assertEquals(good.perTask(), started.perTask());
            assertEquals(good.submittedAt(), started.submittedAt());
            assertEquals("alice", started.user());
            assertEquals("v7", started.policyVersion());
            JobCompleted completed = assertInstanceOf(JobCompleted.class, life.get(1));
            assertEquals(60.0, completed.runtimeS());
            assertEquals(good.submittedAt(), completed.submittedAt());
            assertEquals("alice", completed.user());
            assertTrue(!completed.occurredAt().isBefore(started.occurredAt()));
            // bad-* never reached the cluster
            assertTrue(probe.readAll(Topics.JOBS_LIFECYCLE).stream().noneMatch(s -> s.key().startsWith("bad-")));
        }
        // Completed means released: nothing of good-1 is left on sim-node-01.
        JsonPath nodes = given().get("/simulated-cluster/nodes").then().statusCode(200).extract().jsonPath();
        assertEquals(0, nodes.getInt("nodes.find { it.name == 'sim-node-01' }.allocated.gpuMilli"));
        given().get("/admin/status").then().statusCode(200);
    }

    @Test
    void aSecondDecisionForTheSameJobBindsNothing() {
        SchedulingDecision first = decision("dup-1", List.of("sim-node-02"), new ResourceAmounts(2000, 1000, 1024), 60.0);
        // Same job, new event: a scheduler that decided twice, not a redelivery.
        SchedulingDecision again = decision("dup-1", List.of("sim-node-02"), new ResourceAmounts(2000, 1000, 1024), 60.0);
        try (TopicProbe probe = probe()) {
            probe.send(Topics.SCHEDULING_DECISIONS, "dup-1", EventCodec.encode(first));
            lifecycleOf(probe, "dup-1", 2); // started and completed
            probe.send(Topics.SCHEDULING_DECISIONS, "dup-1", EventCodec.encode(again));
            probe.send(Topics.SCHEDULING_DECISIONS, "after-dup", EventCodec.encode(
                    decision("after-dup", List.of("sim-node-02"), new ResourceAmounts(0, 100, 100), 1.0)));
            // The test broker's topics have one partition: once the later decision is dispatched, the
            // duplicate before it has been consumed.
            lifecycleOf(probe, "after-dup", 1);
            long starts = probe.readAll(Topics.JOBS_LIFECYCLE).stream().filter(s -> s.key().equals("dup-1"))
                    .filter(s -> s.value().contains("\"JobStarted\"")).count();
            assertEquals(1, starts, "a job must be bound once");
        }
        assertTrue(metric("gantry_dispatcher_duplicate_decisions_total", "") >= 1.0);
    }

    @Test
    void aDecisionThatDoesNotFitFailsAndChargesNothing() {
        try (TopicProbe probe = probe()) {
            probe.send(Topics.SCHEDULING_DECISIONS, "big-a", EventCodec.encode(decision("big-a",
                    List.of("sim-node-04"), new ResourceAmounts(6000, 10_000, 10_240), FOREVER_S)));
            assertInstanceOf(JobStarted.class, lifecycleOf(probe, "big-a", 1).get(0));
            // 2 GPUs free; two tasks of 1.5 GPUs on the same node need 3: all or nothing.
            probe.send(Topics.SCHEDULING_DECISIONS, "big-b", EventCodec.encode(decision("big-b",
                    List.of("sim-node-04", "sim-node-04"), new ResourceAmounts(1500, 1000, 1024), 60.0)));
            probe.send(Topics.SCHEDULING_DECISIONS, "lost-1", EventCodec.encode(decision("lost-1",
                    List.of("sim-node-99"), new ResourceAmounts(0, 1000, 1024), 60.0)));

            JobFailed tooBig = assertInstanceOf(JobFailed.class, lifecycleOf(probe, "big-b", 1).get(0));
            assertTrue(tooBig.reason().contains("do not fit on sim-node-04"), tooBig.reason());
            assertEquals("alice", tooBig.user());
            JobFailed lost = assertInstanceOf(JobFailed.class, lifecycleOf(probe, "lost-1", 1).get(0));
            assertTrue(lost.reason().contains("sim-node-99 is not in the simulated cluster"), lost.reason());
        }
        JsonPath nodes = given().get("/simulated-cluster/nodes").then().statusCode(200).extract().jsonPath();
        String node04 = "nodes.find { it.name == 'sim-node-04' }";
        assertEquals(6000, nodes.getInt(node04 + ".allocated.gpuMilli"));
        assertEquals(10_000, nodes.getInt(node04 + ".allocated.cpuMilli"));
        assertEquals(2000, nodes.getInt(node04 + ".free.gpuMilli"));
        assertEquals(List.of("big-a"), nodes.getList(node04 + ".runningJobs"));
        assertTrue(metric("gantry_dispatcher_jobs_failed_total", "cause=\"insufficient_resources\"") >= 1.0);
        assertTrue(metric("gantry_dispatcher_jobs_failed_total", "cause=\"unknown_node\"") >= 1.0);
    }

    @Test
    void theExpositionShowsWhatTheModelHolds() throws InterruptedException {
        ResourceAmounts perTask = new ResourceAmounts(1250, 4000, 10_240);
        try (TopicProbe probe = probe()) {
            probe.send(Topics.SCHEDULING_DECISIONS, "expo-a", EventCodec.encode(decision("expo-a",
                    List.of("sim-node-03", "sim-node-03"), perTask, FOREVER_S)));
            assertInstanceOf(JobStarted.class, lifecycleOf(probe, "expo-a", 1).get(0));
        }
        Map<String, Double> before = scrape();
        Thread.sleep(50);
        Map<String, Double> after = scrape();
        JsonPath nodes = given().get("/simulated-cluster/nodes").then().statusCode(200).extract().jsonPath();
        String node = "nodes.find { it.name == 'sim-node-03' }";
        assertEquals(2500, nodes.getInt(node + ".allocated.gpuMilli"));
        assertEquals(8000, nodes.getInt(node + ".allocated.cpuMilli"));
        assertEquals(20_480, nodes.getInt(node + ".allocated.memoryMib"));
        assertEquals(2, nodes.getInt(node + ".runningPods"));

        String cap = "kube_node_status_capacity{node=\"sim-node-03\",";
        assertEquals(8.0, after.get(cap + "resource=\"nvidia_com_gpu\",unit=\"integer\"}"));
        assertEquals(96.0, after.get(cap + "resource=\"cpu\",unit=\"core\"}"));
        assertEquals(384 * 1024 * MIB, after.get(cap + "resource=\"memory\",unit=\"byte\"}"));
        String req = "kube_pod_container_resource_requests{namespace=\"gantry\",pod=\"expo-a-1\",container=\"main\","
                + "node=\"sim-node-03\",";
        assertEquals(1.25, after.get(req + "resource=\"nvidia_com_gpu\",unit=\"integer\"}"));
        assertEquals(4.0, after.get(req + "resource=\"cpu\",unit=\"core\"}"));
        assertEquals(10_240 * MIB, after.get(req + "resource=\"memory\",unit=\"byte\"}"));
        assertEquals(384 * 1024 * MIB, after.get("node_memory_MemTotal_bytes{instance=\"sim-node-03\"}"));
        assertEquals((384 * 1024 - 20_480) * MIB, after.get("node_memory_MemAvailable_bytes{instance=\"sim-node-03\"}"));
        // 2.5 GPUs requested fill GPU 0 and 1 and half of GPU 2.
        assertEquals(100.0, after.get("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"sim-node-03\"}"));
        assertEquals(100.0, after.get("DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"sim-node-03\"}"));
        assertEquals(50.0, after.get("DCGM_FI_DEV_GPU_UTIL{gpu=\"2\",Hostname=\"sim-node-03\"}"));
        assertEquals(0.0, after.get("DCGM_FI_DEV_GPU_UTIL{gpu=\"3\",Hostname=\"sim-node-03\"}"));

        // 8 cores requested: cores 0-7 accrue no idle time, core 8 and up accrue all of it, on the simulated clock.
        double elapsed = after.get("node_time_seconds{instance=\"sim-node-03\"}")
                - before.get("node_time_seconds{instance=\"sim-node-03\"}");
        assertTrue(elapsed >= 50.0 * 0.9, "at speedup 1000, 50 ms is about 50 simulated seconds: " + elapsed);
        String idle = "node_cpu_seconds_total{cpu=\"%d\",instance=\"sim-node-03\",mode=\"idle\"}";
        assertEquals(0.0, after.get(idle.formatted(7)) - before.get(idle.formatted(7)));
        assertEquals(elapsed, after.get(idle.formatted(8)) - before.get(idle.formatted(8)), 1e-6);
        assertEquals(elapsed, after.get(idle.formatted(95)) - before.get(idle.formatted(95)), 1e-6);
        assertEquals(null, after.get(idle.formatted(96)));
    }

    @Test
    @Order(1)
    void aRestartResumesFromTheTopicsAndTheJobsThatWereRunningRunOn() {
        try (TopicProbe probe = probe()) {
            // ended-while-down-1's 30 s ended an hour ago, while no dispatcher ran: completed, at the time it ended.
            JobCompleted whileDown = assertInstanceOf(JobCompleted.class,
                    lifecycleOf(probe, "ended-while-down-1", 2).get(1));
            assertEquals(30.0, whileDown.runtimeS());
            assertEquals(PriorLifecycleResource.LONG_AGO.plusMillis(30), whileDown.occurredAt());

            // orphan-1 runs on, on its node, for the rest of its run, then completes: nothing lost, nothing failed.
            JsonPath nodes = given().get("/simulated-cluster/nodes").then().statusCode(200).extract().jsonPath();
            assertEquals(1000, nodes.getInt("nodes.find { it.name == 'sim-node-02' }.allocated.gpuMilli"),
                    "orphan-1 holds its GPU again");
            JobCompleted orphan = assertInstanceOf(JobCompleted.class, probe.await(Topics.JOBS_LIFECYCLE, 2,
                    Duration.ofSeconds(90), r -> r.key().equals("orphan-1")).stream()
                    .map(r -> EventCodec.decode(r.value(), LifecycleEvent.class)).toList().get(1));
            assertEquals(PriorLifecycleResource.ORPHAN_DURATION_S, orphan.runtimeS());
            assertEquals(List.of("sim-node-02"), orphan.nodes());
            assertEquals("bob", orphan.user());

            // Decisions for stints dispatched before the restart bind nothing; a new one does.
            probe.send(Topics.SCHEDULING_DECISIONS, "done-1", EventCodec.encode(
                    decision("done-1", List.of("sim-node-02"), PriorLifecycleResource.PER_TASK, 30.0)));
            probe.send(Topics.SCHEDULING_DECISIONS, "orphan-1", EventCodec.encode(
                    decision("orphan-1", List.of("sim-node-02"), PriorLifecycleResource.PER_TASK, 30.0)));
            probe.send(Topics.SCHEDULING_DECISIONS, "after-restart", EventCodec.encode(
                    decision("after-restart", List.of("sim-node-02"), PriorLifecycleResource.PER_TASK, 30.0)));
            assertInstanceOf(JobStarted.class, lifecycleOf(probe, "after-restart", 1).get(0));
            List<TopicProbe.Seen> all = probe.readAll(Topics.JOBS_LIFECYCLE);
            assertEquals(2, all.stream().filter(r -> r.key().equals("done-1")).count(), "done-1: only its old events");
            assertEquals(2, all.stream().filter(r -> r.key().equals("orphan-1")).count(),
                    "orphan-1: its old start and its completion");
            assertTrue(all.stream().noneMatch(r -> r.value().contains("\"JobFailed\"")
                    && (r.key().equals("orphan-1") || r.key().equals("ended-while-down-1"))), "no job failed of the restart");
        }
    }

    @Test
    void healthMetricsAndOpenApiAreServed() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/openapi").then().statusCode(200);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("gantry_dispatcher_running_jobs"), "running-jobs gauge is exported");
        assertTrue(metrics.contains("gantry_dispatcher_bind_latency_seconds"), "bind latency is exported");
    }

    /** Every sample of the exposition by its series ("name{labels}" as written), checking each line's shape. */
    private static Map<String, Double> scrape() {
        String text = given().get("/simulated-cluster/metrics").then().statusCode(200)
                .contentType(org.hamcrest.Matchers.startsWith("text/plain")).extract().asString();
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            assertTrue(space > 0 && line.substring(0, space).endsWith("}"), "sample line: " + line);
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        assertNotNull(samples.get("node_time_seconds{instance=\"sim-node-01\"}"));
        return samples;
    }

    /** The value of a meter on /q/metrics whose line starts with {@code name{...labelFragment}. */
    private static double metric(String name, String labelFragment) {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(l -> l.startsWith(name) && l.contains(labelFragment))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
