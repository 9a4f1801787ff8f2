package io.gantry.priority.mapping;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.UserPriority;
import io.gantry.scheduling.fairness.DynamicPriority;
import java.time.Instant;

/** The one place priority-accounting turns the core's priority assessments into events. */
public final class Priorities {

    private Priorities() {
    }

    /** A user's priority as assessed at {@code at}, with the assessment's explanation as the reason. */
    public static UserPriority published(Instant at, DynamicPriority.Assessment a) {
        return new UserPriority(Events.newId(), GantryEvent.SCHEMA_VERSION, at, a.tenant(), a.basePriority(),
                a.priority(), a.weight(), a.explanation());
    }
}
