package io.gantry.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The upper bounds of {@link Limits} and the name rule of {@link Names}, in every event that carries the field. */
class ContractBoundsTest {

    private static ObjectNode sample(Class<? extends GantryEvent> type) throws Exception {
        GantryEvent e = SampleEvents.all().stream().filter(type::isInstance).findFirst().orElseThrow();
        return (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(e));
    }

    /** The violations of {@code type}'s sample after {@code change}; the sample itself is valid. */
    static List<Violation> violations(Class<? extends GantryEvent> type, Consumer<ObjectNode> change) throws Exception {
        ObjectNode n = sample(type);
        change.accept(n);
        try {
            EventCodec.decode(n.toString(), type);
            return List.of();
        } catch (InvalidEventException e) {
            return e.violations();
        }
    }

    private static void rejected(Class<? extends GantryEvent> type, Consumer<ObjectNode> change, String field,
                                 String reason) throws Exception {
        assertEquals(List.of(new Violation(field, reason)), violations(type, change), type.getSimpleName());
    }

    private static void accepted(Class<? extends GantryEvent> type, Consumer<ObjectNode> change) throws Exception {
        assertEquals(List.of(), violations(type, change), type.getSimpleName());
    }

    /** The poison job: every out-of-bound field named at once. */
    @Test
    void thePoisonJobIsRejectedWithEveryFieldItBreaks() throws Exception {
        List<Violation> v = violations(JobSubmitted.class, n -> {
            n.put("tasks", Integer.MAX_VALUE);
            ((ObjectNode) n.get("tuning")).put("maxGpus", Integer.MAX_VALUE);
        });
        assertEquals(List.of(new Violation("tasks", "must be at most 1024, was 2147483647"),
                new Violation("tuning.maxGpus", "must be at most 8192, was 2147483647")), v);
    }

    @Test
    void everyCountOfASubmissionHasAnUpperBound() throws Exception {
        for (Class<? extends GantryEvent> t : List.of(JobSubmitted.class, JobTuned.class)) {
            rejected(t, n -> n.put("tasks", 1025), "tasks", "must be at most 1024, was 1025");
            accepted(t, n -> n.put("tasks", 1024));
            rejected(t, n -> n.put("batchSize", 16_777_217), "batchSize", "must be at most 16777216, was 16777217");
            rejected(t, n -> n.put("epochs", 100_001), "epochs", "must be at most 100000, was 100001");
            rejected(t, n -> n.put("epochs", 0), "epochs", "must be at least 1, was 0");
        }
        rejected(JobProgress.class, n -> n.put("epoch", 100_001), "epoch", "must be at most 100000, was 100001");
        rejected(JobSubmitted.class, n -> ((ObjectNode) n.get("tuning")).put("maxBatchSize", 16_777_217),
                "tuning.maxBatchSize", "must be at most 16777216, was 16777217");
        rejected(JobSubmitted.class, n -> ((ObjectNode) n.get("tuning")).put("minBatchSize", 0),
                "tuning.minBatchSize", "must be at least 1, was 0");
        accepted(JobSubmitted.class, n -> ((ObjectNode) n.get("tuning")).put("maxGpus", 8192));
    }

    @Test
    void everyPerTaskAmountHasAnUpperBoundWhereverItIsCarried() throws Exception {
        for (Class<? extends GantryEvent> t : List.of(JobSubmitted.class, JobTuned.class, SchedulingDecision.class,
                JobStarted.class, JobCompleted.class, JobFailed.class, JobPreempted.class)) {
            rejected(t, n -> ((ObjectNode) n.get("perTask")).put("gpuMilli", 64_001), "perTask.gpuMilli",
                    "must be at most 64000, was 64001");
            rejected(t, n -> ((ObjectNode) n.get("perTask")).put("cpuMilli", 1_024_001), "perTask.cpuMilli",
                    "must be at most 1024000, was 1024001");
            rejected(t, n -> ((ObjectNode) n.get("perTask")).put("memoryMib", Long.MAX_VALUE), "perTask.memoryMib",
                    "must be at most 16777216, was 9223372036854775807");
            rejected(t, n -> ((ObjectNode) n.get("perTask")).put("gpuMilli", -1), "perTask.gpuMilli",
                    "must be at least 0, was -1");
        }
        // A node's capacity is not a pod's request: no per-task bound there.
        accepted(NodeMetrics.class, n -> ((ObjectNode) n.get("capacity")).put("gpuMilli", 128_000));
    }

    @Test
    void aRunTimeIsFiniteAndAtMost366Days() throws Exception {
        String reason = "must be a finite number of seconds between 0 and 31622400 (366 days), was ";
        for (Class<? extends GantryEvent> t : List.of(JobSubmitted.class, JobTuned.class, SchedulingDecision.class)) {
            rejected(t, n -> n.put("durationS", 1e300), "durationS", reason + "1.0E300");
            rejected(t, n -> n.put("durationS", "Infinity"), "durationS", reason + "Infinity");
            rejected(t, n -> n.put("durationS", "NaN"), "durationS", reason + "NaN");
            rejected(t, n -> n.put("durationS", -0.5), "durationS", reason + "-0.5");
            accepted(t, n -> n.put("durationS", Limits.MAX_DURATION_S));
            accepted(t, n -> n.putNull("durationS"));
        }
        rejected(JobCompleted.class, n -> n.put("runtimeS", "Infinity"), "runtimeS",
                "must be a finite number of seconds >= 0, was Infinity");
        rejected(JobTuned.class, n -> n.put("predictedDurationS", "NaN"), "predictedDurationS",
                "must be a finite number of seconds >= 0, was NaN");
    }

    @Test
    void aGangHoldsAtMostOneNodePerTaskAllowed() throws Exception {
        for (Class<? extends GantryEvent> t : List.of(SchedulingDecision.class, JobStarted.class)) {
            rejected(t, n -> {
                var nodes = n.putArray("nodes");
                for (int i = 0; i <= Limits.MAX_TASKS; i++) {
                    nodes.add("sim-node-01");
                }
            }, "nodes", "must have at most 1024 elements, was 1025");
        }
    }

    @Test
    void usersAndJobIdsFollowTheOneNameRuleInEveryEvent() throws Exception {
        String userReason = "must be " + Names.USER_RULE;
        for (GantryEvent sample : SampleEvents.all()) {
            Class<? extends GantryEvent> t = sample.getClass();
            boolean jobEvent = sample instanceof LifecycleEvent || sample instanceof JobSubmitted
                    || sample instanceof JobTuned || sample instanceof SchedulingDecision;
            if (jobEvent || sample instanceof UserPriority) {
                rejected(t, n -> n.put("user", "../../etc/passwd\n<script>"), "user", userReason);
                rejected(t, n -> n.put("user", "u".repeat(100_000)), "user", "must be at most 200 characters, was 100000");
                accepted(t, n -> n.put("user", "a".repeat(200)));
            }
            if (jobEvent) {
                rejected(t, n -> n.put("jobId", "j".repeat(100_000)), "jobId", "must be at most 317 characters, was 100000");
                rejected(t, n -> n.put("jobId", "../x"), "jobId", "must be " + Names.JOB_ID_RULE);
                accepted(t, n -> n.put("jobId", "gantry-jobs/" + "p".repeat(253)));
            }
        }
        rejected(SchedulingDecision.class, n -> ((ObjectNode) n.get("preempts").get(0)).put("jobId", "a b"),
                "preempts[0].jobId", "must be " + Names.JOB_ID_RULE);
        // Optional on lifecycle events (a pod made outside Gantry may carry none), required on submissions.
        accepted(JobStarted.class, n -> n.remove("user"));
        rejected(JobSubmitted.class, n -> n.remove("user"), "user", "is required and must not be blank");
    }

    @Test
    void freeTextNamesAreBoundedInLength() throws Exception {
        for (Class<? extends GantryEvent> t : List.of(JobSubmitted.class, JobTuned.class)) {
            rejected(t, n -> n.put("model", "m".repeat(254)), "model", "must be at most 253 characters, was 254");
            rejected(t, n -> n.put("jobName", "n".repeat(100_000)), "jobName", "must be at most 253 characters, was 100000");
            accepted(t, n -> n.put("jobName", "a name with spaces, ünïcode and / slashes"));
        }
    }

    @Test
    void theNameRuleItself() {
        assertTrue(Names.isUser("alice.b@example-team_1"));
        assertFalse(Names.isUser("-alice"));
        assertFalse(Names.isUser("alice smith"));
        assertFalse(Names.isUser(null));
        assertTrue(Names.isJobId("openb-pod-0017"));
        assertTrue(Names.isJobId("team-a/train-7"));
        assertFalse(Names.isJobId("a/b/c"));
        assertFalse(Names.isJobId("/etc"));
        assertFalse(Names.isJobId("a/../b"));
    }

    @Test
    void aDerivedIdIsTheSameForTheSameInputAndKindAndDistinctOtherwise() {
        String input = Events.newId();
        assertEquals(Events.derivedId("tuned", input), Events.derivedId("tuned", input));
        assertNotEquals(Events.derivedId("tuned", input), Events.derivedId("rejected", input));
        assertNotEquals(Events.derivedId("tuned", input), Events.derivedId("tuned", Events.newId()));
        // A valid envelope id: a UUID.
        assertEquals(36, java.util.UUID.fromString(Events.derivedId("tuned", input)).toString().length());
    }
}
