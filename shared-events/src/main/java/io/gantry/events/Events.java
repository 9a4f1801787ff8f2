package io.gantry.events;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Small helpers for producers of events. */
public final class Events {

    private Events() {
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }

    /**
     * The id of the event that {@code kind} of handling makes of the event {@code causeEventId}: a name-based UUID, the
     * same every time. A consumer that crashed after sending its output and handles the input again sends the very same
     * event id, so downstream duplicate detection recognises the second copy; two different inputs never share one.
     *
     * @param kind what the handling produces, e.g. {@code "tuned"}; distinct kinds of one input get distinct ids
     */
    public static String derivedId(String kind, String causeEventId) {
        return UUID.nameUUIDFromBytes((kind + ":" + causeEventId).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
