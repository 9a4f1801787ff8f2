package io.gantry.scheduling.framework;

import java.util.List;

/** Where each task of a job goes: {@code nodes.get(i)} holds task i. A gang is placed whole or not at all. */
public record Placement(String jobId, List<String> nodes) {
    public Placement {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a placement names at least one node: " + jobId);
        }
    }
}
