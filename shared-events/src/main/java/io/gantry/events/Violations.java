package io.gantry.events;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** Collects {@link Violation}s with small, named checks so each event states its rules in a few lines. */
public final class Violations {

    private final List<Violation> list = new ArrayList<>();

    public List<Violation> list() {
        return List.copyOf(list);
    }

    public void add(String field, String reason) {
        list.add(new Violation(field, reason));
    }

    void envelope(String eventId, int schemaVersion, Instant occurredAt) {
        if (notBlank("eventId", eventId)) {
            try {
                UUID.fromString(eventId);
            } catch (IllegalArgumentException e) {
                add("eventId", "must be a UUID");
            }
        }
        if (schemaVersion != GantryEvent.SCHEMA_VERSION) {
            add("schemaVersion", "must be " + GantryEvent.SCHEMA_VERSION + ", was " + schemaVersion);
        }
        present("occurredAt", occurredAt);
    }

    public boolean present(String field, Object value) {
        if (value == null) {
            add(field, "is required");
            return false;
        }
        return true;
    }

    public boolean notBlank(String field, String value) {
        if (value == null || value.isBlank()) {
            add(field, "is required and must not be blank");
            return false;
        }
        return true;
    }

    public void notEmpty(String field, Collection<?> value) {
        if (value == null || value.isEmpty()) {
            add(field, "must not be empty");
        }
    }

    public void atLeast(String field, long value, long min) {
        if (value < min) {
            add(field, "must be at least " + min + ", was " + value);
        }
    }

    public void atLeast(String field, double value, double min) {
        if (!(value >= min)) {
            add(field, "must be at least " + min + ", was " + value);
        }
    }

    public void between(String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            add(field, "must be between " + min + " and " + max + ", was " + value);
        }
    }

    /** Optional value: checked only when present. */
    public void atLeastIfPresent(String field, Number value, long min) {
        if (value != null && value.doubleValue() < min) {
            add(field, "must be at least " + min + ", was " + value);
        }
    }

    public void resources(String field, ResourceAmounts r) {
        if (present(field, r)) {
            atLeast(field + ".gpuMilli", r.gpuMilli(), 0);
            atLeast(field + ".cpuMilli", r.cpuMilli(), 0);
            atLeast(field + ".memoryMib", r.memoryMib(), 0);
        }
    }
}
