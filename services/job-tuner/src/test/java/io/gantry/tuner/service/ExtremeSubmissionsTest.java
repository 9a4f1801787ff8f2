package io.gantry.tuner.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.events.EventCodec;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.Limits;
import io.gantry.events.Violation;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Property: a {@code JobSubmitted} with extreme values in any of its fields is either rejected with a field and a
 * reason, or valid, and then job-tuner decides on it, the preview answers it, and the scheduling core schedules what
 * the tuner queues, all without an exception; a job the core does not finish is one that can never fit the cluster.
 *
 * <p>Why no jqwik: its engine is built on JUnit Platform 1.x and does not run on the Platform 6.0.3 the Quarkus BOM
 * manages (jqwik 1.10's notes: the last release on Platform 1.x; a later one would need Platform 6 and Java 21; projects
 * moving to JUnit 6 drop it), and its 1.10 releases ask not to be used by AI coding agents, which wrote this test.
 * Instead a seeded generator in plain JUnit: each case starts from an ordinary valid submission and sets one to four
 * fields to values drawn from edge cases (0, ±1, the contract's bounds and one past them, the int and long extremes,
 * 1e300, NaN and ±Infinity as numbers and as strings, -0.0, wrong types, null, 100,000-character and hostile strings)
 * or random values; a failure names the seed and the case, which replays it exactly.
 */
class ExtremeSubmissionsTest {

    private static final long SEED = 22;
    private static final int CASES = 2_500;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String HUGE = "x".repeat(100_000);

    private static JobTuner tuner;
    private static TunerPreview preview;

    @BeforeAll
    static void load() {
        tuner = new JobTuner(JobTunerBoundsTest.config(Optional.empty()));
        preview = new TunerPreview(tuner);
    }

    /** Values for an int field: edge cases of its type and of the contract, wrong types, and random ones. */
    private static Object intValue(Random r, int bound) {
        Object[] edge = {0, 1, -1, 2, bound, bound + 1L, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE + 1L,
                Long.MAX_VALUE, 1e300, -1e300, 2.5, -0.0, Double.NaN, "NaN", "Infinity", "-Infinity", null, "12", "many",
                HUGE, List.of(1), JSON.objectNode()};
        return r.nextInt(4) == 0 ? (Object) (1 + r.nextInt(Math.min(bound, 5_000))) : edge[r.nextInt(edge.length)];
    }

    /** Values for a per-task amount (a long). */
    private static Object amountValue(Random r, long bound) {
        Object[] edge = {0L, 1L, -1L, 500L, 1000L, 8000L, bound, bound + 1, Long.MAX_VALUE, Long.MIN_VALUE,
                (long) Integer.MAX_VALUE, 1e300, Double.POSITIVE_INFINITY, "NaN", null, "lots", 9.99e18,
                new java.math.BigInteger("99999999999999999999999")};
        return r.nextInt(4) == 0 ? (Object) (long) r.nextInt(200_000) : edge[r.nextInt(edge.length)];
    }

    private static Object durationValue(Random r) {
        Object[] edge = {0.0, -0.0, 1.0, 3600.0, -1.0, 1e300, -1e300, Limits.MAX_DURATION_S, Limits.MAX_DURATION_S + 1,
                Double.MAX_VALUE, Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY, "NaN", "Infinity", "-Infinity",
                null, "long", Long.MAX_VALUE};
        return r.nextInt(4) == 0 ? (Object) (r.nextDouble() * 1e6) : edge[r.nextInt(edge.length)];
    }

    private static Object stringValue(Random r, String ordinary) {
        Object[] edge = {"", " ", ordinary, HUGE, "../../etc/passwd\n<script>", "a".repeat(200), "a".repeat(201),
                "a".repeat(253), "a".repeat(254), "j".repeat(317), "j".repeat(318), "ns/" + ordinary, "ünïcödé", null, 42,
                "-lead", "cifar10", "ncf", "bert", "imagenet", "yolov3", "deepspeech2", "gpt-5"};
        return edge[r.nextInt(edge.length)];
    }

    /** An ordinary valid submission, often of a profiled model, so most cases reach the tuner's models. */
    private static ObjectNode ordinary(Random r, int i) {
        String[] models = {"cifar10", "bert", "ncf", "imagenet", "yolov3", "deepspeech2", "unknown"};
        ObjectNode n = JSON.objectNode();
        n.put("type", JobSubmitted.TYPE).put("eventId", new UUID(SEED, i).toString()).put("schemaVersion", 1)
                .put("occurredAt", Instant.parse("2026-12-01T00:00:00Z").plusSeconds(i).toString())
                .put("jobId", "case-" + i).put("user", "user-" + (i % 5)).put("jobName", "case " + i)
                .put("model", models[r.nextInt(models.length)]).put("tasks", 1 + r.nextInt(4));
        int gpus = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(8);
        n.putObject("perTask").put("gpuMilli", gpus * 1000L).put("cpuMilli", 1000L + r.nextInt(16_000))
                .put("memoryMib", 1024L + r.nextInt(64_000));
        n.put("batchSize", 1 << (3 + r.nextInt(10))).put("epochs", 1 + r.nextInt(120)).put("durationS", 60.0 + r.nextInt(86_400));
        n.putObject("tuning").put("enabled", r.nextInt(5) != 0).put("minBatchSize", 8).put("maxBatchSize", 8192)
                .put("maxGpus", 1 + r.nextInt(64));
        return n;
    }

    /** One to four fields set to an extreme value (sometimes one that is still valid). */
    private static ObjectNode extreme(Random r, int i) {
        ObjectNode n = ordinary(r, i);
        List<Consumer<ObjectNode>> changes = List.of(
                x -> put(x, "tasks", intValue(r, Limits.MAX_TASKS)),
                x -> put(x, "batchSize", intValue(r, Limits.MAX_BATCH_SIZE)),
                x -> put(x, "epochs", intValue(r, Limits.MAX_EPOCHS)),
                x -> put(x, "durationS", durationValue(r)),
                x -> putIn(x, "perTask", "gpuMilli", amountValue(r, Limits.MAX_GPU_MILLI_PER_TASK)),
                x -> putIn(x, "perTask", "cpuMilli", amountValue(r, Limits.MAX_CPU_MILLI_PER_TASK)),
                x -> putIn(x, "perTask", "memoryMib", amountValue(r, Limits.MAX_MEMORY_MIB_PER_TASK)),
                x -> putIn(x, "tuning", "maxGpus", intValue(r, Limits.MAX_GPUS)),
                x -> putIn(x, "tuning", "minBatchSize", intValue(r, Limits.MAX_BATCH_SIZE)),
                x -> putIn(x, "tuning", "maxBatchSize", intValue(r, Limits.MAX_BATCH_SIZE)),
                x -> put(x, "jobId", stringValue(r, "case-" + i)),
                x -> put(x, "user", stringValue(r, "alice")),
                x -> put(x, "jobName", stringValue(r, "name")),
                x -> put(x, "model", stringValue(r, "cifar10")),
                x -> put(x, "tuning", r.nextBoolean() ? null : "on"),
                x -> put(x, "perTask", r.nextBoolean() ? null : List.of(1000, 1000, 1000)));
        int k = r.nextInt(5);
        for (int c = 0; c < k; c++) {
            changes.get(r.nextInt(changes.size())).accept(n);
        }
        return n;
    }

    /** Sets {@code parent.field}, unless an earlier change replaced the parent by something else than an object. */
    private static void putIn(ObjectNode n, String parent, String field, Object v) {
        if (n.get(parent) instanceof ObjectNode p) {
            put(p, field, v);
        }
    }

    private static void put(ObjectNode n, String field, Object v) {
        n.set(field, v == null ? JSON.nullNode() : EventCodec.mapper().valueToTree(v));
    }

    /** The poison job, and the largest job the contract allows, among the generated ones. */
    private static List<ObjectNode> named() {
        ObjectNode poison = ordinary(new Random(SEED), CASES);
        poison.put("model", "cifar10").put("tasks", Integer.MAX_VALUE).put("batchSize", 256);
        ((ObjectNode) poison.get("tuning")).put("maxGpus", Integer.MAX_VALUE);
        ObjectNode largest = ordinary(new Random(SEED), CASES + 1);
        largest.put("model", "ncf").put("tasks", Limits.MAX_TASKS).put("batchSize", Limits.MAX_BATCH_SIZE)
                .put("epochs", Limits.MAX_EPOCHS).put("durationS", Limits.MAX_DURATION_S);
        ((ObjectNode) largest.get("perTask")).put("gpuMilli", 8000);
        ((ObjectNode) largest.get("tuning")).put("enabled", true).put("minBatchSize", 1)
                .put("maxBatchSize", Limits.MAX_BATCH_SIZE).put("maxGpus", Limits.MAX_GPUS);
        return List.of(poison, largest);
    }

    @Test
    void everyExtremeSubmissionIsRejectedWithAReasonOrDecidedAndScheduledWithoutAnException() {
        Random r = new Random(SEED);
        List<ObjectNode> cases = new ArrayList<>();
        IntStream.range(0, CASES).forEach(i -> cases.add(extreme(r, i)));
        cases.addAll(named());
        List<String> failures = new ArrayList<>();
        List<JobTuned> queued = new ArrayList<>();
        int rejectedByContract = 0;
        int rejectedByTuner = 0;
        for (int i = 0; i < cases.size(); i++) {
            String json = cases.get(i).toString();
            String where = "seed " + SEED + ", case " + i + ": " + abbreviated(json);
            try {
                JobSubmitted job;
                try {
                    job = EventCodec.decode(json, JobSubmitted.class);
                } catch (InvalidEventException e) {
                    rejectedByContract++;
                    checkRejection(e.violations(), where, failures);
                    tuner.rejectionOfInvalid(json, e).ifPresent(rej -> checkValid(rej.violations(), "rejection " + where, failures));
                    checkPreviewAnswers(json, where, failures);
                    continue;
                }
                JobTuner.Decision d = tuner.decide(job);
                if (d instanceof JobTuner.Rejected rej) {
                    rejectedByTuner++;
                    JobRejected event = rej.event();
                    checkRejection(List.of(new Violation(event.field(), event.reason())), where, failures);
                    checkValid(event.violations(), "rejection " + where, failures);
                    checkPreviewRefuses(json, where, failures);
                } else {
                    JobTuned tuned = ((JobTuner.Tuned) d).event();
                    checkValid(tuned.violations(), "tuned " + where, failures);
                    queued.add(tuned);
                    preview.preview(json);
                }
            } catch (RuntimeException e) {
                failures.add(where + " threw " + e);
            }
        }
        assertEquals(List.of(), failures.stream().limit(10).toList(), failures.size() + " failing case(s)");
        // The generator must reach every branch, or the property says little.
        assertTrue(rejectedByContract > CASES / 10, "rejected by the contract: " + rejectedByContract);
        assertTrue(rejectedByTuner > 20, "rejected by the tuner: " + rejectedByTuner);
        assertTrue(queued.size() > CASES / 5, "queued: " + queued.size());
        assertTrue(queued.stream().anyMatch(t -> !t.changes().isEmpty()), "some were tuned");
        for (String policy : List.of("kube-default", "tiresias")) {
            scheduleEveryQueuedJob(queued, policy);
        }
    }

    /** The core schedules every queued job on 13 nodes of 8 GPUs, 96 vCPUs, 384 GiB; what it cannot finish never fits. */
    private static void scheduleEveryQueuedJob(List<JobTuned> queued, String policy) {
        List<NodeSpec> nodes = IntStream.range(0, 13)
                .mapToObj(i -> new NodeSpec("n" + i, Resources.ofGpus(8, 96, 384))).toList();
        List<JobRequest> jobs = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < queued.size(); i++) {
            JobTuned t = queued.get(i);
            if (!ids.add(t.jobId())) {
                continue; // the scheduler queues a job id once; generated cases may share one
            }
            Resources perTask = new Resources(t.perTask().gpuMilli(), t.perTask().cpuMilli(), t.perTask().memoryMib());
            // The simulated cluster runs a job without durationS for its default hour.
            double duration = t.durationS() == null ? 3600 : t.durationS();
            jobs.add(new JobRequest(t.jobId(), t.user(), t.tasks(), perTask, i * 60.0, 0, Double.NaN, duration));
        }
        SimulationResult result = new Simulator(nodes, PolicyRegistry.create(policy), new HistoryDurationPredictor())
                .run(jobs, null);
        Set<String> finished = new HashSet<>();
        result.outcomes().stream().map(JobOutcome::id).forEach(finished::add);
        for (JobRequest j : jobs) {
            boolean fits = fitsEmptyCluster(j, nodes);
            assertEquals(fits, finished.contains(j.id()), policy + ": " + j);
        }
        assertEquals(jobs.size(), finished.size() + result.unfinished().size(), policy);
    }

    /** Whether the gang could run on the empty cluster (tasks placed node by node, each node as often as it holds one). */
    private static boolean fitsEmptyCluster(JobRequest j, List<NodeSpec> nodes) {
        Resources t = j.perTask();
        long slots = 0;
        for (NodeSpec n : nodes) {
            Resources c = n.capacity();
            if (c.covers(t)) {
                slots += Math.min(per(c.gpuMilli(), t.gpuMilli()), Math.min(per(c.cpuMilli(), t.cpuMilli()),
                        per(c.memoryMib(), t.memoryMib())));
            }
        }
        return slots >= j.tasks();
    }

    private static long per(long capacity, long need) {
        return need == 0 ? Integer.MAX_VALUE : capacity / need;
    }

    private static void checkRejection(List<Violation> violations, String where, List<String> failures) {
        if (violations.isEmpty() || violations.stream().anyMatch(v -> v.field() == null || v.field().isBlank()
                || v.reason() == null || v.reason().isBlank())) {
            failures.add(where + " rejected without a field and reason: " + violations);
        }
    }

    private static void checkValid(List<Violation> violations, String where, List<String> failures) {
        if (!violations.isEmpty()) {
            failures.add(where + " made an invalid event: " + violations);
        }
    }

    /**
     * The preview answers any body: a preview, or a refusal with a field and a reason (its 400). It may preview a body
     * the contract refuses, since it ignores the envelope and lets jobId and user out.
     */
    private static void checkPreviewAnswers(String json, String where, List<String> failures) {
        try {
            preview.preview(json);
        } catch (TunerPreview.BadBody bad) {
            checkRejection(List.of(new Violation(bad.rejection().field(), bad.rejection().reason())), "preview " + where,
                    failures);
        }
    }

    /** The preview refuses what the tuner rejects, with a field and a reason (its 400). */
    private static void checkPreviewRefuses(String json, String where, List<String> failures) {
        try {
            preview.preview(json);
            failures.add(where + " was previewed although the pipeline rejects it");
        } catch (TunerPreview.BadBody bad) {
            checkRejection(List.of(new Violation(bad.rejection().field(), bad.rejection().reason())), "preview " + where,
                    failures);
        }
    }

    private static String abbreviated(String json) {
        return json.length() <= 400 ? json : json.substring(0, 400) + "… (" + json.length() + " chars)";
    }
}
