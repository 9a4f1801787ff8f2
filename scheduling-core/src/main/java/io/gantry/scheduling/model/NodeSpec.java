package io.gantry.scheduling.model;

import java.util.Objects;

/** A node as the scheduler sees it: a name and what it can hold. */
public record NodeSpec(String name, Resources capacity) {
    public NodeSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(capacity, "capacity");
    }
}
