package io.gantry.studio.service;

/**
 * One reason a request cannot be served: the JSON field (a dotted path, e.g. {@code graph.layers[2].params.kernel}),
 * the graph node it is about (null when none) and why.
 */
public record FieldError(String field, String nodeId, String reason) {

    public static FieldError of(String field, String reason) {
        return new FieldError(field, null, reason);
    }
}
