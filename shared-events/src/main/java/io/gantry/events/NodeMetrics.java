package io.gantry.events;

import java.time.Instant;

/**
 * One node's capacity and measured use, on {@code gantry.cluster.metrics} keyed by node name.
 * Utilisations are ratios 0..1; a value that could not be measured is null, never made up.
 *
 * @param stale  true when the source had no fresh sample for this node (values are the last seen)
 * @param source where the numbers came from: {@code prometheus}, {@code simulated-cluster}, {@code kubernetes}
 */
public record NodeMetrics(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String node,
        ResourceAmounts capacity,
        ResourceAmounts allocated,
        Double cpuUtilisation,
        Double gpuUtilisation,
        Double memoryUtilisation,
        Integer runningPods,
        boolean schedulable,
        boolean stale,
        String source) implements GantryEvent {

    public static final String TYPE = "NodeMetrics";

    @Override
    public String key() {
        return node;
    }

    @Override
    public void checkBody(Violations v) {
        v.node("node", node);
        v.resources("capacity", capacity);
        if (allocated != null) {
            v.resources("allocated", allocated);
        }
        ratio(v, "cpuUtilisation", cpuUtilisation);
        ratio(v, "gpuUtilisation", gpuUtilisation);
        ratio(v, "memoryUtilisation", memoryUtilisation);
        v.notBlank("source", source);
    }

    private static void ratio(Violations v, String field, Double value) {
        if (value != null) {
            v.between(field, value, 0.0, 1.0);
        }
    }
}
