package io.gantry.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The optional {@code training} object: absent changes nothing, present is checked field by field. */
class TrainingSpecTest {

    private static ObjectNode submitted() throws Exception {
        return (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(SampleEvents.all().get(0)));
    }

    private static ObjectNode training(ObjectNode n) {
        return (ObjectNode) n.get("training");
    }

    private static ObjectNode layer(ObjectNode n, int i) {
        return (ObjectNode) training(n).get("model").get("layers").get(i);
    }

    /** field -> reason of every violation. */
    private static Map<String, String> violations(ObjectNode n) {
        InvalidEventException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidEventException.class,
                () -> EventCodec.decode(n.toString()));
        return e.violations().stream().collect(Collectors.toMap(Violation::field, Violation::reason, (a, b) -> a + "; " + b));
    }

    @Test
    void aJobWithoutTrainingEncodesAsBeforeAndDecodesWithNone() throws Exception {
        ObjectNode n = submitted();
        n.remove("training");
        JobSubmitted s = EventCodec.decode(n.toString(), JobSubmitted.class);
        assertNull(s.training());
        assertFalse(EventCodec.encode(s).contains("training"), "a trace job's JSON carries no training field");
        n.putNull("training");
        assertNull(EventCodec.decode(n.toString(), JobSubmitted.class).training());
    }

    @Test
    void theSampleSpecIsValidAndKeepsItsGraph() throws Exception {
        JobSubmitted s = EventCodec.decode(submitted().toString(), JobSubmitted.class);
        assertEquals(SampleEvents.TRAINING, s.training());
        assertEquals(List.of("in", "conv1", "relu1", "pool1", "flat", "drop", "out"),
                s.training().model().topologicalOrder().stream().map(ModelGraph.Layer::id).toList());
        assertEquals(3, s.training().model().layers().get(1).intParam("kernel", 0));
    }

    @Test
    void unknownLayerTypeNamesTheLayer() throws Exception {
        ObjectNode n = submitted();
        layer(n, 2).put("type", "Relu6");
        Map<String, String> v = violations(n);
        assertTrue(v.get("training.model.layers[2].type").contains("layer 'relu1'"), v.toString());
        assertTrue(v.get("training.model.layers[2].type").contains("unknown layer type 'Relu6'"), v.toString());
    }

    @Test
    void badLayerParametersNameLayerAndParameter() throws Exception {
        ObjectNode n = submitted();
        ((ObjectNode) layer(n, 1).get("params")).put("kernel", 0);
        ((ObjectNode) layer(n, 1).get("params")).put("kernal", 3);
        ((ObjectNode) layer(n, 5).get("params")).put("rate", 1.5);
        ((ObjectNode) layer(n, 3).get("params")).remove("kernel");
        Map<String, String> v = violations(n);
        assertTrue(v.get("training.model.layers[1].params.kernel").contains("between 1 and 64, was 0"), v.toString());
        assertTrue(v.get("training.model.layers[1].params.kernal").contains("takes no parameter 'kernal'"), v.toString());
        assertTrue(v.get("training.model.layers[5].params.rate").contains("layer 'drop'"), v.toString());
        assertTrue(v.get("training.model.layers[3].params.kernel").contains("requires it"), v.toString());
    }

    @Test
    void graphStructureIsChecked() throws Exception {
        ObjectNode n = submitted();
        ArrayNode edges = (ArrayNode) training(n).get("model").get("edges");
        edges.addObject().put("from", "flat").put("to", "conv1"); // a cycle, and conv1 now has two inputs
        edges.addObject().put("from", "drop").put("to", "nowhere");
        Map<String, String> v = violations(n);
        assertTrue(v.get("training.model.edges[7].to").contains("'nowhere'"), v.toString());

        n = submitted();
        ((ArrayNode) training(n).get("model").get("edges")).addObject().put("from", "flat").put("to", "conv1");
        v = violations(n);
        assertTrue(v.get("training.model.layers[1]").contains("layer 'conv1' (Conv2d) takes 1 input(s), has 2"), v.toString());

        n = submitted();
        ((ObjectNode) training(n).get("model").get("edges").get(5)).put("from", "flat"); // drop dangles
        v = violations(n);
        assertTrue(v.get("training.model.layers[5]").contains("'drop' does not lead to the Output"), v.toString());
    }

    @Test
    void eachGraphRuleNamesWhatBrokeIt() throws Exception {
        ObjectNode n = submitted();
        ((ObjectNode) training(n).get("model").get("edges").get(1)).put("to", "in"); // conv1 -> in closes a loop
        ((ArrayNode) training(n).get("model").get("edges")).addObject().put("from", "in").put("to", "relu1");
        Map<String, String> v = violations(n);
        assertEquals("form a cycle through layer(s) in, conv1", v.get("training.model.edges"), v.toString());

        n = submitted();
        ((ArrayNode) training(n).get("model").get("edges")).addObject().put("from", "in").put("to", "conv1");
        v = violations(n);
        assertEquals("repeats the edge in -> conv1", v.get("training.model.edges[6]"), v.toString());

        n = submitted();
        layer(n, 2).put("id", "conv1");
        v = violations(n);
        assertEquals("layer 'conv1' is declared twice", v.get("training.model.layers[2].id"), v.toString());

        n = submitted();
        ((ArrayNode) training(n).get("model").get("edges")).addObject().put("from", "out").put("to", "drop");
        v = violations(n);
        assertTrue(v.get("training.model.layers[6]").contains("'out' (Output) must not feed another layer"), v.toString());
    }

    @Test
    void datasetOptimizerAndHyperParametersAreChecked() throws Exception {
        ObjectNode n = submitted();
        training(n).put("dataset", "mnist");
        training(n).put("optimizer", "rmsprop");
        training(n).put("learningRate", 50.0);
        training(n).put("batchSize", 0);
        training(n).put("epochs", 1_000_000);
        training(n).remove("seed");
        ((ObjectNode) training(n).get("target")).put("metric", "f1").put("value", 1.5);
        Map<String, String> v = violations(n);
        assertTrue(v.get("training.dataset").contains("digits, iris, wine, breast-cancer"), v.toString());
        assertTrue(v.get("training.optimizer").contains("sgd, adam"), v.toString());
        assertTrue(v.get("training.learningRate").contains("at most 10.0, was 50.0"), v.toString());
        assertTrue(v.get("training.batchSize").contains("at least 1"), v.toString());
        assertTrue(v.get("training.epochs").contains("at most 1000"), v.toString());
        assertEquals("is required", v.get("training.seed"));
        assertTrue(v.get("training.target.metric").contains("test_accuracy"), v.toString());
        assertTrue(v.get("training.target.value").contains("at most 1"), v.toString());
    }

    @Test
    void theModelKeyGroupsRunsOfOneModelAndDataset() {
        TrainingSpec a = SampleEvents.TRAINING;
        assertEquals(16, a.modelKey().length());
        assertEquals(a.modelKey(), a.with(128, 0.001, 3).modelKey(), "hyper-parameters do not change the model");
        TrainingSpec other = new TrainingSpec(a.model(), "iris", a.optimizer(), a.learningRate(), a.batchSize(),
                a.epochs(), a.seed(), a.target());
        assertNotEquals(a.modelKey(), other.modelKey());
    }

    @Test
    void theResultIsALifecycleEventThatEndsNothing() throws Exception {
        JobResult r = (JobResult) SampleEvents.all().stream().filter(e -> e instanceof JobResult).findFirst().orElseThrow();
        assertFalse(r.terminal());
        assertEquals(r, EventCodec.decode(EventCodec.encode(r), LifecycleEvent.class));
        ObjectNode n = (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(r));
        ((ArrayNode) n.get("confusionMatrix").get(1)).add(3);
        n.put("testAccuracy", 1.2);
        Map<String, String> v = violations(n);
        assertTrue(v.containsKey("confusionMatrix[1]"), v.toString());
        assertTrue(v.containsKey("testAccuracy"), v.toString());
    }

    @Test
    void aResultNamesItsOptimizerAndTargetAndBadOnesAreRefusedByField() throws Exception {
        JobResult r = (JobResult) SampleEvents.all().stream().filter(e -> e instanceof JobResult).findFirst().orElseThrow();
        assertEquals("adam", r.optimizer());
        assertEquals(new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.95), r.target());
        ObjectNode n = (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(r));
        n.put("optimizer", "rmsprop");
        ((ObjectNode) n.get("target")).put("metric", "f1");
        ((ObjectNode) n.get("target")).put("value", 1.5);
        Map<String, String> v = violations(n);
        assertTrue(v.get("optimizer").contains("must be one of sgd, adam"), v.toString());
        assertTrue(v.get("target.metric").contains("must be one of"), v.toString());
        assertTrue(v.get("target.value").contains("at most 1"), v.toString());
    }

    /** Written by a runner older than the optimizer and target fields: same schema version, both absent. */
    @Test
    void aResultWrittenBeforeOptimizerAndTargetDecodesWithNeither() throws Exception {
        String old = java.nio.file.Files.readString(
                java.nio.file.Path.of("src/test/resources/golden-compat/JobResult-without-optimizer-and-target.json"));
        JobResult r = EventCodec.decode(old, JobResult.class);
        assertNull(r.optimizer());
        assertNull(r.target());
        assertEquals(GantryEvent.SCHEMA_VERSION, r.schemaVersion());
        assertTrue(r.violations().isEmpty(), r.violations().toString());
        ObjectNode again = (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(r));
        assertFalse(again.has("optimizer") || again.has("target"), "absent stays absent: " + again);
    }
}
