package io.gantry.tuner;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.TuningOptions;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class TunerPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static JobSubmitted job(String id, int tasks) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, "alice", "test", null, tasks,
                new ResourceAmounts(1000, 4000, 8192), null, null, 60.0, null);
    }

    @Test
    void malformedAndInvalidEventsAreDeadLetteredWithTheirReasonAndTheNextGoodOneIsTuned() {
        String dlq = Topics.deadLetter("job-tuner");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, "bad-1", "{\"type\":\"JobSubmitted\",\"jobId\":");
            probe.send(Topics.JOBS_SUBMITTED, "bad-2", EventCodec.encode(job("bad-2", 0)));
            probe.send(Topics.JOBS_SUBMITTED, "good-1", EventCodec.encode(job("good-1", 2)));

            List<TopicProbe.Seen> dead = probe.await(dlq, 2, WAIT, s -> s.key().startsWith("bad-"));
            assertTrue(dead.get(0).headers().get("dead-letter-reason").contains("malformed JSON"), dead.get(0).toString());
            assertTrue(dead.get(1).headers().get("dead-letter-reason").contains("tasks: must be at least 1"),
                    dead.get(1).toString());
            assertEquals(Topics.JOBS_SUBMITTED, dead.get(1).headers().get("dead-letter-topic"));

            // The readable submission is also rejected on the lifecycle topic, naming the field; the unreadable one
            // cannot be (it names no job).
            JobRejected rejected = EventCodec.decode(probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                    s -> s.key().equals("bad-2")).get(0).value(), JobRejected.class);
            assertEquals("job-tuner", rejected.stage());
            assertEquals("tasks", rejected.field());
            assertEquals("must be at least 1, was 0", rejected.reason());
            assertEquals("alice", rejected.user());

            TopicProbe.Seen out = probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals("good-1")).get(0);
            JobTuned tuned = EventCodec.decode(out.value(), JobTuned.class);
            assertEquals(2, tuned.tasks());
            // No model named: nothing to tune from, and the summary says so.
            assertTrue(tuned.changes().isEmpty(), tuned.toString());
            assertEquals("not tuned: the job names no model, so no measured profile applies", tuned.summary());
        }
        given().get("/admin/status").then().statusCode(200)
                .body("channels.submitted.deadLettered", greaterThanOrEqualTo(2))
                .body("channels.tuned.produced", greaterThanOrEqualTo(1));
    }

    /** Each class of job that can never run, through the broker: its JobRejected names the field and the reason. */
    @Test
    void everyRejectedInputClassGetsItsClearJobRejectedReason() {
        ResourceAmounts oneGpu = new ResourceAmounts(1000, 4000, 8192);
        TuningOptions bounds = new TuningOptions(true, 256, 1024, 2);
        // key → {submission JSON, field, words the reason must contain, dead-lettered too?}
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("rej-batch-0", new String[] {encode(submit("rej-batch-0", "cifar10", 1, oneGpu, 0, 10, null)),
                "batchSize", "must be at least 1, was 0", "dlq"});
        cases.put("rej-epochs-neg", new String[] {encode(submit("rej-epochs-neg", "cifar10", 1, oneGpu, 128, -3, null)),
                "epochs", "must be at least 1, was -3", "dlq"});
        cases.put("rej-type", new String[] {encode(submit("rej-type", "cifar10", 1, oneGpu, 128, 10, null))
                .replace("\"batchSize\":128", "\"batchSize\":\"large\""), "batchSize", "Cannot deserialize", "dlq"});
        cases.put("rej-bounds-order", new String[] {encode(submit("rej-bounds-order", "cifar10", 1, oneGpu, 128, 10,
                new TuningOptions(true, 512, 256, null))), "tuning.maxBatchSize", "must not be below tuning.minBatchSize", "dlq"});
        cases.put("rej-gpu-node", new String[] {encode(submit("rej-gpu-node", "cifar10", 1,
                new ResourceAmounts(16_000, 4000, 8192), 128, 10, null)), "perTask.gpuMilli", "largest node has (8 GPUs)", ""});
        cases.put("rej-cpu-node", new String[] {encode(submit("rej-cpu-node", null, 2,
                new ResourceAmounts(0, 128_000, 8192), null, null, null)), "perTask.cpuMilli", "largest node has (96 vCPUs)", ""});
        cases.put("rej-mem-node", new String[] {encode(submit("rej-mem-node", null, 1,
                new ResourceAmounts(1000, 4000, 400 * 1024), null, null, null)), "perTask.memoryMib", "(384 GiB = 393216 MiB)", ""});
        cases.put("rej-below-min", new String[] {encode(submit("rej-below-min", "cifar10", 1, oneGpu, 128, 10, bounds)),
                "batchSize", "128 is below your own tuning.minBatchSize 256", ""});
        cases.put("rej-above-max", new String[] {encode(submit("rej-above-max", "cifar10", 1, oneGpu, 2048, 10, bounds)),
                "batchSize", "2048 is above your own tuning.maxBatchSize 1024", ""});
        cases.put("rej-max-gpus", new String[] {encode(submit("rej-max-gpus", "cifar10", 4, oneGpu, 512, 10, bounds)),
                "tuning.maxGpus", "is 2 but the job itself asks for 4 GPUs", ""});
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            cases.forEach((key, c) -> probe.send(Topics.JOBS_SUBMITTED, key, c[0]));
            List<TopicProbe.Seen> seen = probe.await(Topics.JOBS_LIFECYCLE, cases.size(), WAIT, s -> cases.containsKey(s.key()));
            Map<String, JobRejected> byKey = new LinkedHashMap<>();
            seen.forEach(s -> byKey.put(s.key(), EventCodec.decode(s.value(), JobRejected.class)));
            cases.forEach((key, c) -> {
                JobRejected r = byKey.get(key);
                assertEquals(key, r.jobId());
                assertEquals("job-tuner", r.stage(), key);
                assertEquals(c[1], r.field(), key + ": " + r);
                assertTrue(r.reason().contains(c[2]), key + ": " + r.reason());
            });
            List<String> deadLettered = cases.entrySet().stream().filter(e -> e.getValue()[3].equals("dlq")).map(Map.Entry::getKey).toList();
            probe.await(Topics.deadLetter("job-tuner"), deadLettered.size(), WAIT, s -> deadLettered.contains(s.key()));
            // A job that can never run is rejected, never also queued.
            probe.send(Topics.JOBS_SUBMITTED, "after-rejections", encode(submit("after-rejections", null, 1, oneGpu, null, null, null)));
            probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals("after-rejections"));
            assertTrue(probe.readAll(Topics.JOBS_TUNED).stream().noneMatch(s -> cases.containsKey(s.key())));
        }
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metricValue(metrics, "gantry_tuner_jobs_total{outcome=\"rejected\"}") >= cases.size(), metrics);
        assertTrue(metricValue(metrics, "gantry_tuner_rejections_total{field=\"perTask\"}") >= 3, metrics);
        assertTrue(metricValue(metrics, "gantry_tuner_rejections_total{field=\"batchSize\"}") >= 4, metrics);
    }

    /** A profiled job through the broker comes out tuned within its bounds, every change explained; "do not tune" exactly as sent. */
    @Test
    void aProfiledJobIsTunedWithinItsBoundsAndDoNotTuneIsRespected() {
        ResourceAmounts oneGpu = new ResourceAmounts(1000, 4000, 8192);
        JobSubmitted tunable = submit("tune-1", "cifar10", 8, oneGpu, 256, null, new TuningOptions(true, 128, 1024, 8));
        JobSubmitted off = submit("tune-off", "cifar10", 8, oneGpu, 256, 100, new TuningOptions(false, null, null, null));
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, "tune-1", encode(tunable));
            probe.send(Topics.JOBS_SUBMITTED, "tune-off", encode(off));
            Map<String, JobTuned> out = new LinkedHashMap<>();
            probe.await(Topics.JOBS_TUNED, 2, WAIT, s -> s.key().startsWith("tune-"))
                    .forEach(s -> out.put(s.key(), EventCodec.decode(s.value(), JobTuned.class)));
            JobTuned t = out.get("tune-1");
            assertTrue(t.summary().startsWith("tuned:"), t.summary());
            assertTrue(t.batchSize() >= 128 && t.batchSize() <= 1024, t.toString());
            assertTrue(t.tasks() * t.perTask().gpuMilli() <= 8000, t.toString());
            assertTrue(t.predictedDurationS() > 0, t.toString());
            assertFalse(t.changes().isEmpty());
            t.changes().forEach(c -> assertFalse(c.reason().isBlank(), c.toString()));
            assertEquals(tunable.occurredAt(), t.submittedAt());

            JobTuned o = out.get("tune-off");
            assertEquals(List.of(), o.changes());
            assertEquals(List.of(8, 256, 100), List.of(o.tasks(), o.batchSize(), o.epochs()));
            assertEquals(oneGpu, o.perTask());
            assertEquals(off.durationS(), o.durationS());
            assertEquals("not tuned: the submitter switched tuning off", o.summary());
        }
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metricValue(metrics, "gantry_tuner_jobs_total{outcome=\"tuned\"}") >= 1, metrics);
        assertTrue(metricValue(metrics, "gantry_tuner_jobs_total{outcome=\"unchanged\"}") >= 1, metrics);
        assertTrue(metricValue(metrics, "gantry_tuner_changes_total{field=\"batchSize\"}") >= 1, metrics);
        assertTrue(metricValue(metrics, "gantry_tuner_predicted_gpu_seconds_total{configuration=\"submitted\"}")
                > metricValue(metrics, "gantry_tuner_predicted_gpu_seconds_total{configuration=\"tuned\"}"), metrics);
        assertEquals(6.0, metricValue(metrics, "gantry_tuner_models"), metrics);
    }

    private static JobSubmitted submit(String id, String model, int tasks, ResourceAmounts perTask, Integer batch,
                                       Integer epochs, TuningOptions tuning) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, "alice", "test", model, tasks, perTask, batch, epochs,
                600.0, tuning);
    }

    /** EventCodec.encode writes without validating, which is what lets a test produce contract-breaking submissions. */
    private static String encode(JobSubmitted job) {
        return EventCodec.encode(job);
    }

    /** The value of one Prometheus sample line, matched by its name and labels (other labels may follow). */
    static double metricValue(String exposition, String nameAndLabels) {
        String prefix = nameAndLabels.endsWith("}") ? nameAndLabels.substring(0, nameAndLabels.length() - 1) : nameAndLabels;
        for (String line : exposition.split("\n")) {
            if (line.startsWith(prefix) && (line.charAt(prefix.length()) == '}' || line.charAt(prefix.length()) == ','
                    || line.charAt(prefix.length()) == ' ')) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError(nameAndLabels + " not in the metrics");
    }

    @Test
    void aRedeliveredEventIsTunedOnce() {
        JobSubmitted job = job("dup-1", 1);
        String json = EventCodec.encode(job);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_SUBMITTED, "dup-1", json);
            probe.send(Topics.JOBS_SUBMITTED, "dup-1", json);
            probe.send(Topics.JOBS_SUBMITTED, "after-dup", EventCodec.encode(job("after-dup", 1)));
            // Once the later job is out, the duplicate has certainly been consumed.
            probe.await(Topics.JOBS_TUNED, 1, WAIT, s -> s.key().equals("after-dup"));
            long copies = probe.readAll(Topics.JOBS_TUNED).stream().filter(s -> s.key().equals("dup-1")).count();
            assertEquals(1, copies, "a redelivered submission must be tuned exactly once");
        }
    }

    @Test
    void healthAndMetricsAndOpenApiAreServed() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
        given().get("/q/openapi").then().statusCode(200);
    }
}
