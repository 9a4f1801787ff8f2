package io.gantry.events;

import java.util.UUID;

/** Small helpers for producers of events. */
public final class Events {

    private Events() {
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }
}
