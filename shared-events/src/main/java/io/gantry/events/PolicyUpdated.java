package io.gantry.events;

import java.time.Instant;
import java.util.Map;

/** A new policy version was promoted, with the replay check that justified it. Keyed by policy name. */
public record PolicyUpdated(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String policy,
        String version,
        String previousVersion,
        Map<String, Double> evaluation,
        String reason) implements GantryEvent {

    public static final String TYPE = "PolicyUpdated";

    public PolicyUpdated {
        evaluation = evaluation == null ? Map.of() : Map.copyOf(evaluation);
    }

    @Override
    public String key() {
        return policy;
    }

    @Override
    public void checkBody(Violations v) {
        v.notBlank("policy", policy);
        v.notBlank("version", version);
    }
}
