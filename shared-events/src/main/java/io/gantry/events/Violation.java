package io.gantry.events;

/** One reason an event is invalid: the JSON field (a dotted path) and why. */
public record Violation(String field, String reason) {
    @Override
    public String toString() {
        return field + ": " + reason;
    }
}
