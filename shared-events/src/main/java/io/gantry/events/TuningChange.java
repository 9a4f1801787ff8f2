package io.gantry.events;

/** One field the tuner changed (or deliberately left), with the reason a person can read. */
public record TuningChange(String field, String from, String to, String reason) {
}
