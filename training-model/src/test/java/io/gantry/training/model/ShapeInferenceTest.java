package io.gantry.training.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.ModelGraph;
import io.gantry.events.ModelGraph.Edge;
import io.gantry.events.ModelGraph.Layer;
import io.gantry.events.TrainingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShapeInferenceTest {

    static ModelGraph chain(Layer... layers) {
        List<Edge> edges = new ArrayList<>();
        for (int i = 1; i < layers.length; i++) {
            edges.add(new Edge(layers[i - 1].id(), layers[i].id()));
        }
        return new ModelGraph(List.of(layers), edges);
    }

    static TrainingSpec spec(ModelGraph g, String dataset) {
        return new TrainingSpec(g, dataset, "adam", 0.01, 32, 5, 1L, null);
    }

    @Test
    void aSmallCnnOnDigitsHasTheShapesDjlComputes() {
        ModelGraph g = chain(new Layer("in", "Input"),
                new Layer("c1", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new Layer("r", "ReLU"), new Layer("p", "MaxPool2d", Map.of("kernel", 2)),
                new Layer("c2", "Conv2d", Map.of("filters", 16, "kernel", 3)),
                new Layer("f", "Flatten"), new Layer("out", "Output"));
        Map<String, int[]> s = ShapeInference.check(spec(g, "digits"));
        assertArrayEquals(new int[]{8, 8, 8}, s.get("c1"));
        assertArrayEquals(new int[]{8, 4, 4}, s.get("p"));
        assertArrayEquals(new int[]{16, 2, 2}, s.get("c2"));
        assertArrayEquals(new int[]{64}, s.get("f"));
        assertArrayEquals(new int[]{10}, s.get("out"));
    }

    @Test
    void residualAddAndConcatBranches() {
        ModelGraph g = new ModelGraph(List.of(new Layer("in", "Input"), new Layer("a", "Linear", Map.of("units", 16)),
                new Layer("b", "Linear", Map.of("units", 16)), new Layer("sum", "Add"),
                new Layer("cat", "Concat"), new Layer("out", "Output")),
                List.of(new Edge("in", "a"), new Edge("in", "b"), new Edge("a", "sum"), new Edge("b", "sum"),
                        new Edge("sum", "cat"), new Edge("in", "cat"), new Edge("cat", "out")));
        Map<String, int[]> s = ShapeInference.check(spec(g, "wine"));
        assertArrayEquals(new int[]{29}, s.get("cat"));
        assertArrayEquals(new int[]{3}, s.get("out"));
    }

    @Test
    void aMismatchNamesTheLayerAndBothShapes() {
        ModelGraph g = new ModelGraph(List.of(new Layer("in", "Input"), new Layer("a", "Linear", Map.of("units", 16)),
                new Layer("b", "Linear", Map.of("units", 8)), new Layer("sum", "Add"), new Layer("out", "Output")),
                List.of(new Edge("in", "a"), new Edge("in", "b"), new Edge("a", "sum"), new Edge("b", "sum"),
                        new Edge("sum", "out")));
        SpecException e = assertThrows(SpecException.class, () -> ShapeInference.check(spec(g, "iris")));
        assertEquals("training.model.layers[3]", e.field());
        assertTrue(e.reason().contains("layer 'sum' (Add)") && e.reason().contains("[16] and [8]"), e.reason());

        SpecException flat = assertThrows(SpecException.class, () -> ShapeInference.check(spec(
                chain(new Layer("in", "Input"), new Layer("fc", "Linear", Map.of("units", 4)), new Layer("out", "Output")),
                "digits")));
        assertTrue(flat.reason().contains("layer 'fc' (Linear) needs a flat input") && flat.reason().contains("[1, 8, 8]"),
                flat.reason());

        SpecException big = assertThrows(SpecException.class, () -> ShapeInference.check(spec(
                chain(new Layer("in", "Input"), new Layer("c", "Conv2d", Map.of("filters", 4, "kernel", 9)),
                        new Layer("f", "Flatten"), new Layer("out", "Output")), "digits")));
        assertTrue(big.reason().contains("kernel 9") && big.reason().contains("[1, 8, 8]"), big.reason());
    }

    @Test
    void outputUnitsAndDeclaredInputShapeMustMatchTheDataset() {
        SpecException units = assertThrows(SpecException.class, () -> ShapeInference.check(spec(
                chain(new Layer("in", "Input"), new Layer("out", "Output", Map.of("units", 10))), "iris")));
        assertEquals("training.model.layers[1].params.units", units.field());
        SpecException shape = assertThrows(SpecException.class, () -> ShapeInference.check(spec(
                chain(new Layer("in", "Input", Map.of("shape", List.of(64))), new Layer("out", "Output")), "iris")));
        assertTrue(shape.reason().contains("[64]") && shape.reason().contains("[4]"), shape.reason());
    }

    @Test
    void contractViolationsComeFirstWithTheirField() {
        SpecException e = assertThrows(SpecException.class, () -> ShapeInference.check(spec(
                chain(new Layer("in", "Input"), new Layer("x", "Softmax"), new Layer("out", "Output")), "iris")));
        assertEquals("training.model.layers[1].type", e.field());
        SpecException d = assertThrows(SpecException.class, () -> ShapeInference.check(spec(
                chain(new Layer("in", "Input"), new Layer("out", "Output")), "mnist")));
        assertEquals("training.dataset", d.field());
    }
}
