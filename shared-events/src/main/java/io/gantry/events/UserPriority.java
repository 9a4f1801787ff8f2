package io.gantry.events;

import java.time.Instant;

/**
 * A user's current scheduling priority. On the compacted topic {@code gantry.users.priority}, keyed by user,
 * so the latest value per user is always there for a scheduler that starts late.
 *
 * @param basePriority the admin-set priority
 * @param priority     the dynamic priority the scheduler orders by (higher runs first)
 * @param weight       the user's entitlement weight (share of the cluster)
 */
public record UserPriority(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String user,
        double basePriority,
        double priority,
        double weight,
        String reason) implements GantryEvent {

    public static final String TYPE = "UserPriority";

    @Override
    public String key() {
        return user;
    }

    @Override
    public void checkBody(Violations v) {
        v.user("user", user);
        v.atLeast("weight", weight, 0.0);
        if (!Double.isFinite(priority)) {
            v.add("priority", "must be a finite number");
        }
    }
}
