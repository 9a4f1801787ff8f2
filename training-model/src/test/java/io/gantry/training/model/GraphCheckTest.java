package io.gantry.training.model;

import static io.gantry.training.model.ShapeInferenceTest.chain;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.ModelGraph;
import io.gantry.events.ModelGraph.Edge;
import io.gantry.events.ModelGraph.Layer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link ShapeInference#analyse}: every node gets its shape or its error, and every root cause is listed. */
class GraphCheckTest {

    private static final Datasets.Info DIGITS = Datasets.info("digits");

    private static GraphCheck analyse(ModelGraph g) {
        return ShapeInference.analyse(g, DIGITS, "graph");
    }

    private static Map<String, String> problemsByNode(GraphCheck c) {
        return c.problems().stream().filter(p -> p.nodeId() != null)
                .collect(Collectors.toMap(GraphCheck.Problem::nodeId, GraphCheck.Problem::reason, (a, b) -> a));
    }

    @Test
    void aValidGraphGivesEveryNodeItsShape() {
        GraphCheck c = analyse(chain(new Layer("in", "Input"),
                new Layer("c1", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new Layer("p", "MaxPool2d", Map.of("kernel", 2)), new Layer("f", "Flatten"), new Layer("out", "Output")));
        assertTrue(c.valid(), c.problems().toString());
        assertEquals(List.of("in", "c1", "p", "f", "out"), List.copyOf(c.nodes().keySet()));
        assertArrayEquals(new int[]{8, 4, 4}, c.nodes().get("p").shape());
        assertArrayEquals(new int[]{10}, c.nodes().get("out").shape());
    }

    @Test
    void aShapeMismatchNamesTheNodeAndBothShapesAndLaterNodesSayWhyTheyHaveNone() {
        GraphCheck c = analyse(new ModelGraph(List.of(new Layer("in", "Input"), new Layer("f", "Flatten"),
                new Layer("a", "Linear", Map.of("units", 16)), new Layer("b", "Linear", Map.of("units", 8)),
                new Layer("sum", "Add"), new Layer("out", "Output")),
                List.of(new Edge("in", "f"), new Edge("f", "a"), new Edge("f", "b"), new Edge("a", "sum"),
                        new Edge("b", "sum"), new Edge("sum", "out"))));
        assertFalse(c.valid());
        assertEquals(1, c.problems().size(), c.problems().toString());
        GraphCheck.Problem p = c.problems().get(0);
        assertEquals("sum", p.nodeId());
        assertEquals("graph.layers[4]", p.field());
        assertTrue(p.reason().contains("[16] and [8]"), p.reason());
        assertArrayEquals(new int[]{16}, c.nodes().get("a").shape());
        assertNull(c.nodes().get("sum").shape());
        assertTrue(c.nodes().get("out").error().contains("its input 'sum' has an error"), c.nodes().get("out").error());
    }

    @Test
    void everyKindOfErrorIsReportedOnItsNodeAtOnce() {
        // conv: kernel out of range; fc: a Linear on an image; loose: an unconnected Linear; no Output at all.
        GraphCheck c = analyse(new ModelGraph(List.of(new Layer("in", "Input"),
                new Layer("conv", "Conv2d", Map.of("filters", 8, "kernel", 99)), new Layer("fc", "Linear",
                        Map.of("units", 4)), new Layer("loose", "Linear", Map.of("units", 4))),
                List.of(new Edge("in", "conv"), new Edge("in", "fc"))));
        Map<String, String> byNode = problemsByNode(c);
        assertTrue(byNode.get("conv").contains("must be between 1 and 64, was 99"), byNode.toString());
        assertTrue(byNode.get("loose").contains("takes 1 input(s), has 0"), byNode.toString());
        assertTrue(c.problems().stream().anyMatch(p -> p.nodeId() == null
                && p.reason().contains("exactly one Output layer, has 0")), c.problems().toString());
        // fc lies on no path to an Output (there is none), so the contract's reachability rule names it too; but its
        // shape error is what the user must fix first once an Output exists: both are on the node.
        assertTrue(c.nodes().get("fc").error() != null);
        assertArrayEquals(new int[]{1, 8, 8}, c.nodes().get("in").shape());
        assertEquals(4, c.nodes().size());
        c.nodes().forEach((id, n) -> assertTrue(n.shape() != null ^ n.error() != null, id));
    }

    @Test
    void aFlatInputToLinearIsAShapeErrorNamingTheShape() {
        GraphCheck c = analyse(chain(new Layer("in", "Input"), new Layer("fc", "Linear", Map.of("units", 4)),
                new Layer("out", "Output")));
        assertTrue(problemsByNode(c).get("fc").contains("needs a flat input [features], got [1, 8, 8]"),
                c.problems().toString());
    }

    @Test
    void aCycleMarksEveryLayerOnItAndTheLayersItFeeds() {
        GraphCheck c = analyse(new ModelGraph(List.of(new Layer("in", "Input"), new Layer("a", "ReLU"),
                new Layer("b", "Add"), new Layer("f", "Flatten"), new Layer("out", "Output")),
                List.of(new Edge("in", "b"), new Edge("b", "a"), new Edge("a", "b"), new Edge("a", "f"),
                        new Edge("f", "out"))));
        Map<String, String> byNode = problemsByNode(c);
        assertTrue(byNode.get("a").contains("is on a cycle"), byNode.toString());
        assertTrue(byNode.get("b").contains("is on a cycle"), byNode.toString());
        assertTrue(c.nodes().get("f").error().contains("fed by a cycle"), c.nodes().get("f").error());
        assertArrayEquals(new int[]{1, 8, 8}, c.nodes().get("in").shape());
    }

    @Test
    void theRunnersFirstErrorIsTheFirstProblem() {
        ModelGraph g = chain(new Layer("in", "Input"), new Layer("fc", "Linear", Map.of("units", 4)),
                new Layer("out", "Output"));
        GraphCheck c = ShapeInference.analyse(g, DIGITS, "training.model");
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> ShapeInference.infer(g, DIGITS));
        assertEquals(c.problems().get(0).field(), e.field());
        assertEquals(c.problems().get(0).reason(), e.reason());
    }
}
