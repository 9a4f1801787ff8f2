package io.gantry.scheduling.trace;

/** A row of a trace file that could not be turned into a job, and why. Counted, never silently dropped. */
public record BadRow(String file, long line, String reason) {
    @Override
    public String toString() {
        return file + ":" + line + ": " + reason;
    }
}
