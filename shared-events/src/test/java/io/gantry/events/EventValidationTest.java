package io.gantry.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class EventValidationTest {

    private static ObjectNode submittedJson() throws Exception {
        GantryEvent sample = SampleEvents.all().get(0);
        return (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(sample));
    }

    private static ObjectNode sampleJson(Class<? extends GantryEvent> type) throws Exception {
        GantryEvent sample = SampleEvents.all().stream().filter(type::isInstance).findFirst().orElseThrow();
        return (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(sample));
    }

    private static InvalidEventException rejects(String json) {
        return assertThrows(InvalidEventException.class, () -> EventCodec.decode(json));
    }

    @Test
    void malformedJsonIsNamedAsSuch() {
        InvalidEventException e = rejects("{\"type\":\"JobSubmitted\", \"jobId\": ");
        assertEquals("$", e.violations().get(0).field());
        assertTrue(e.violations().get(0).reason().startsWith("malformed JSON"), e.getMessage());
        assertEquals("$", rejects("").violations().get(0).field());
    }

    @Test
    void unknownTypeNamesTheTypeField() {
        assertEquals("type", rejects("{\"type\":\"JobExploded\"}").violations().get(0).field());
        assertEquals("type", rejects("{\"jobId\":\"x\"}").violations().get(0).field());
    }

    @Test
    void aCancelRequestNamesAValidJobAndItsUser() throws Exception {
        ObjectNode n = sampleJson(JobCancelRequested.class);
        assertInstanceOf(JobCancelRequested.class, EventCodec.decode(n.toString()));
        n.put("jobId", "../etc");
        n.remove("user");
        n.put("reason", "x".repeat(Limits.MAX_NAME_LENGTH + 1));
        java.util.List<String> fields = rejects(n.toString()).violations().stream().map(Violation::field).toList();
        assertEquals(java.util.List.of("jobId", "user", "reason"), fields);
    }

    @Test
    void missingNumberIsAnErrorNotAZero() throws Exception {
        ObjectNode n = submittedJson();
        n.remove("tasks");
        assertEquals("tasks", rejects(n.toString()).violations().get(0).field());
    }

    @Test
    void wrongTypeNamesTheNestedField() throws Exception {
        ObjectNode n = submittedJson();
        ((ObjectNode) n.get("perTask")).put("gpuMilli", "lots");
        assertEquals("perTask.gpuMilli", rejects(n.toString()).violations().get(0).field());
    }

    @Test
    void everyBrokenRuleIsReportedWithItsField() throws Exception {
        ObjectNode n = submittedJson();
        n.put("tasks", 0);
        n.put("user", " ");
        n.put("eventId", "not-a-uuid");
        n.put("schemaVersion", 9);
        ((ObjectNode) n.get("perTask")).put("memoryMib", -1);
        ((ObjectNode) n.get("tuning")).put("minBatchSize", 2048);
        var fields = rejects(n.toString()).violations().stream().map(Violation::field).toList();
        assertEquals(java.util.List.of("eventId", "schemaVersion", "user", "tasks", "perTask.memoryMib",
                "tuning.maxBatchSize"), fields);
    }

    @Test
    void decodingForAnotherTypeIsRefused() throws Exception {
        String json = submittedJson().toString();
        InvalidEventException e = assertThrows(InvalidEventException.class,
                () -> EventCodec.decode(json, LifecycleEvent.class));
        assertEquals("type", e.violations().get(0).field());
        assertInstanceOf(JobSubmitted.class, EventCodec.decode(json, JobSubmitted.class));
    }

    /** Producers older than preemption wrote neither field: such a decision is a first start that stops nothing. */
    @Test
    void decisionWithoutAttemptOrPreemptsIsAFirstStart() throws Exception {
        ObjectNode n = sampleJson(SchedulingDecision.class);
        n.remove("attempt");
        n.remove("preempts");
        SchedulingDecision d = EventCodec.decode(n.toString(), SchedulingDecision.class);
        assertEquals(1, d.attempt());
        assertEquals(java.util.List.of(), d.preempts());
        ObjectNode p = sampleJson(JobPreempted.class);
        p.remove("attempt");
        p.remove("ranS");
        JobPreempted old = EventCodec.decode(p.toString(), JobPreempted.class);
        assertEquals(1, old.attempt());
        assertEquals(null, old.ranS());
    }

    /** Schedulers older than GPU devices wrote none: such a decision chose no devices, and writes none again. */
    @Test
    void decisionWithoutGpuDevicesChoseNone() throws Exception {
        ObjectNode n = sampleJson(SchedulingDecision.class);
        n.remove("gpuDevices");
        SchedulingDecision d = EventCodec.decode(n.toString(), SchedulingDecision.class);
        assertEquals(java.util.List.of(), d.gpuDevices());
        assertEquals(false, EventCodec.mapper().readTree(EventCodec.encode(d)).has("gpuDevices"));
    }

    @Test
    void badGpuDevicesAreReportedWithTheirField() throws Exception {
        ObjectNode n = sampleJson(SchedulingDecision.class);
        n.putArray("gpuDevices").addArray().add(1).add(2);
        assertEquals("gpuDevices[0]", rejects(n.toString()).violations().get(0).field(), "1000 milli is one device");
        n.putArray("gpuDevices").addArray().add(64);
        assertEquals("gpuDevices[0]", rejects(n.toString()).violations().get(0).field());
        n.putArray("gpuDevices").addArray().add(0);
        n.withArray("gpuDevices").addArray().add(1);
        assertEquals("gpuDevices", rejects(n.toString()).violations().get(0).field(), "two lists for one task");
        n.put("perTask", EventCodec.mapper().valueToTree(new ResourceAmounts(2000, 1000, 1024)));
        n.putArray("gpuDevices").addArray().add(5).add(5);
        assertEquals("gpuDevices[0]", rejects(n.toString()).violations().get(0).field(), "a device twice");
    }

    @Test
    void aSubmissionWithoutPreemptibleMayBePreempted() throws Exception {
        ObjectNode n = sampleJson(JobSubmitted.class);
        assertEquals(false, EventCodec.decode(n.toString(), JobSubmitted.class).preemptible());
        n.remove("preemptible");
        assertEquals(true, EventCodec.decode(n.toString(), JobSubmitted.class).preemptible());
        ObjectNode t = sampleJson(JobTuned.class);
        t.remove("preemptible");
        assertEquals(true, EventCodec.decode(t.toString(), JobTuned.class).preemptible());
    }

    @Test
    void badPreemptionsAreReportedWithTheirField() throws Exception {
        ObjectNode n = sampleJson(SchedulingDecision.class);
        n.put("attempt", 0);
        var preempts = n.putArray("preempts");
        preempts.addObject().put("jobId", n.get("jobId").asText()).put("attempt", 1);
        preempts.addObject().put("jobId", "other").put("attempt", 0);
        var fields = rejects(n.toString()).violations().stream().map(Violation::field).toList();
        assertEquals(java.util.List.of("attempt", "preempts[0].attempt", "preempts[1].attempt"), fields);

        // A job may stop an earlier attempt of its own (a re-size), never the one it starts or a later one.
        ObjectNode resize = sampleJson(SchedulingDecision.class);
        resize.put("attempt", 2);
        resize.putArray("preempts").addObject().put("jobId", resize.get("jobId").asText()).put("attempt", 1);
        assertEquals(2, EventCodec.decode(resize.toString(), SchedulingDecision.class).attempt());
        ((ObjectNode) resize.get("preempts").get(0)).put("attempt", 2);
        Violation self = rejects(resize.toString()).violations().get(0);
        assertEquals("preempts[0].attempt", self.field());
        assertTrue(self.reason().contains("only an earlier attempt of its own"), self.reason());
        ObjectNode p = sampleJson(JobPreempted.class);
        p.put("ranS", -3.0);
        assertEquals("ranS", rejects(p.toString()).violations().get(0).field());
    }

    /** A known event of another type is named as the wrong type, not as a broken body of the expected one. */
    @Test
    void anEventOfAnotherTypeIsRefusedByItsTypeBeforeItsBodyIsRead() throws Exception {
        String completed = sampleJson(JobCompleted.class).toString();
        InvalidEventException e = assertThrows(InvalidEventException.class,
                () -> EventCodec.decode(completed, JobSubmitted.class));
        assertEquals(java.util.List.of(new Violation("type", "expected JobSubmitted, got JobCompleted")), e.violations());
        ObjectNode broken = sampleJson(JobCompleted.class);
        broken.put("runtimeS", "forever");
        assertEquals("type: expected JobSubmitted, got JobCompleted", assertThrows(InvalidEventException.class,
                () -> EventCodec.decode(broken.toString(), JobSubmitted.class)).violations().get(0).toString());
        assertInstanceOf(JobCompleted.class, EventCodec.decode(completed, LifecycleEvent.class));
    }

    @Test
    void aBodyThatIsNotAnObjectIsNamedAsSuch() {
        assertEquals("$: must be a JSON object, was array", rejects("[1, 2]").violations().get(0).toString());
        assertEquals("$: empty message", rejects("null").violations().get(0).toString());
        assertTrue(rejects("[".repeat(5_000)).violations().get(0).reason().contains("nesting depth"));
    }

    @Test
    void unknownFieldsFromANewerProducerAreTolerated() throws Exception {
        ObjectNode n = submittedJson();
        n.put("futureField", 42);
        assertEquals("openb-pod-0017", EventCodec.decode(n.toString(), JobSubmitted.class).jobId());
    }

    /** Events written before re-tuning existed still read: no revision is the first tuning, no batch sizes are unknown. */
    @Test
    void eventsWithoutTheReTuneFieldsStillParse() throws Exception {
        ObjectNode t = sampleJson(JobTuned.class);
        t.remove("revision");
        JobTuned first = EventCodec.decode(t.toString(), JobTuned.class);
        assertEquals(0, first.revision());
        assertEquals(false, first.retune());
        ObjectNode p = sampleJson(JobProgress.class);
        p.remove("batchSize");
        assertEquals(null, EventCodec.decode(p.toString(), JobProgress.class).batchSize());
        ObjectNode r = sampleJson(JobResult.class);
        r.remove("epochBatchSizes");
        JobResult old = EventCodec.decode(r.toString(), JobResult.class);
        assertEquals(null, old.epochBatchSizes());
        assertEquals(false, old.retuned());
    }

    @Test
    void aReTuneIsARevisionOfATrainingJobAndItsBatchSizesAreChecked() throws Exception {
        ObjectNode t = sampleJson(JobTuned.class);
        t.put("revision", 2);
        assertEquals(true, EventCodec.decode(t.toString(), JobTuned.class).retune());
        t.put("revision", -1);
        assertEquals("revision", rejects(t.toString()).violations().get(0).field());
        t.put("revision", 1);
        t.remove("training");
        assertEquals("revision", rejects(t.toString()).violations().get(0).field(), "a trace job is never re-tuned");
        ObjectNode p = sampleJson(JobProgress.class);
        p.put("batchSize", 0);
        assertEquals("batchSize", rejects(p.toString()).violations().get(0).field());
        ObjectNode r = sampleJson(JobResult.class);
        assertEquals(true, EventCodec.decode(r.toString(), JobResult.class).retuned());
        ((com.fasterxml.jackson.databind.node.ArrayNode) r.get("epochBatchSizes")).remove(0);
        assertEquals("epochBatchSizes", rejects(r.toString()).violations().get(0).field(), "one entry per epoch");
        ((com.fasterxml.jackson.databind.node.ArrayNode) r.get("epochBatchSizes")).add(9999);
        assertEquals("epochBatchSizes[13]", rejects(r.toString()).violations().get(0).field());
    }

    @Test
    void onlyFinishedStatesAreTerminal() {
        for (GantryEvent e : SampleEvents.all()) {
            if (e instanceof LifecycleEvent l) {
                boolean expected = l instanceof JobCompleted || l instanceof JobFailed || l instanceof JobRejected;
                assertEquals(expected, l.terminal(), l.type());
                assertEquals(l.jobId(), l.key());
            }
        }
    }
}
