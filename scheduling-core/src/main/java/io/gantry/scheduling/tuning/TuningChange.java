package io.gantry.scheduling.tuning;

/** One field the tuner changed, from what to what, and why in words a submitter can check. */
public record TuningChange(String field, String from, String to, String reason) {
}
