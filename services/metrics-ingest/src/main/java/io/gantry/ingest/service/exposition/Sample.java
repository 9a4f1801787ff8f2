package io.gantry.ingest.service.exposition;

import java.util.Map;

/** One sample line of a Prometheus text exposition. {@code raw} is the line as written, {@code line} its number. */
public record Sample(String name, Map<String, String> labels, double value, Long timestampMs, int line, String raw) {

    public String label(String labelName) {
        return labels.get(labelName);
    }
}
