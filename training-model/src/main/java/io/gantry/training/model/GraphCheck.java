package io.gantry.training.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link ShapeInference#analyse} found for every layer of a graph: its output shape, or why it has none. The
 * studio shows one result per node as the user edits; the runner takes the first problem.
 *
 * @param nodes    every layer with a valid id, in declaration order: a shape or an error
 * @param problems the root causes in the order found (the contract's rules first, then shapes in topological order);
 *                 a layer whose only trouble is an input that has an error is in {@code nodes}, not here
 */
public record GraphCheck(Map<String, Node> nodes, List<Problem> problems) {

    /** One layer: exactly one of {@code shape} (per sample, batch axis left out) and {@code error} is set. */
    public record Node(int[] shape, String error) {
        public static Node of(int[] shape) {
            return new Node(shape, null);
        }

        public static Node failed(String error) {
            return new Node(null, error);
        }
    }

    /** One root cause: the JSON field to blame, the layer (null for the graph as a whole) and the reason. */
    public record Problem(String field, String nodeId, String reason) {
    }

    public GraphCheck {
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        problems = List.copyOf(problems);
    }

    public boolean valid() {
        return problems.isEmpty();
    }
}
