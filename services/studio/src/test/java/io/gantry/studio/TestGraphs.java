package io.gantry.studio;

import java.util.List;
import java.util.Map;

/** Graph bodies for the REST tests, as the page sends them (plain JSON maps). */
final class TestGraphs {

    private TestGraphs() {
    }

    static Map<String, Object> layer(String id, String type, Map<String, Object> params) {
        return Map.of("id", id, "type", type, "params", params);
    }

    static Map<String, Object> layer(String id, String type) {
        return layer(id, type, Map.of());
    }

    static Map<String, Object> edge(String from, String to) {
        return Map.of("from", from, "to", to);
    }

    static Map<String, Object> graph(List<Map<String, Object>> layers, List<Map<String, Object>> edges) {
        return Map.of("layers", layers, "edges", edges);
    }

    /** Input, Conv 3×3 (8, padding 1), ReLU, MaxPool 2, Flatten, Linear 32, Output: valid on digits. */
    static Map<String, Object> smallCnn() {
        return graph(List.of(layer("in", "Input"),
                        layer("conv", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                        layer("relu", "ReLU"), layer("pool", "MaxPool2d", Map.of("kernel", 2)), layer("flat", "Flatten"),
                        layer("fc", "Linear", Map.of("units", 32)), layer("out", "Output")),
                List.of(edge("in", "conv"), edge("conv", "relu"), edge("relu", "pool"), edge("pool", "flat"),
                        edge("flat", "fc"), edge("fc", "out")));
    }

    /** Input, Linear 16, Output: valid on iris. */
    static Map<String, Object> irisMlp() {
        return graph(List.of(layer("in", "Input"), layer("fc", "Linear", Map.of("units", 16)), layer("out", "Output")),
                List.of(edge("in", "fc"), edge("fc", "out")));
    }
}
