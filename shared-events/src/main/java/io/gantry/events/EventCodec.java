package io.gantry.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.List;
import java.util.stream.Collectors;

/**
 * JSON (de)serialisation of events. Decoding validates: what comes back is a well-formed, valid event,
 * or an {@link InvalidEventException} that names the field and the reason.
 */
public final class EventCodec {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            // A missing number must be an error, not a silent 0.
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // Tolerant reader: a newer producer may add fields this consumer does not know yet.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private EventCodec() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String encode(GantryEvent event) {
        try {
            return MAPPER.writerFor(GantryEvent.class).writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + event.type(), e);
        }
    }

    /** Reads and validates any event, selected by its {@code type} field. */
    public static GantryEvent decode(String json) {
        return decode(json, GantryEvent.class);
    }

    /** Reads and validates an event that must be of {@code expected} (or a subtype, e.g. {@link LifecycleEvent}). */
    public static <T extends GantryEvent> T decode(String json, Class<T> expected) {
        if (json == null || json.isBlank()) {
            throw new InvalidEventException("$", "empty message");
        }
        GantryEvent event;
        try {
            event = MAPPER.readValue(json, GantryEvent.class);
        } catch (InvalidTypeIdException e) {
            throw new InvalidEventException("type", "unknown or missing event type '" + e.getTypeId() + "'");
        } catch (JsonMappingException e) {
            throw new InvalidEventException(path(e), firstLine(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            throw new InvalidEventException("$", "malformed JSON: " + firstLine(e.getOriginalMessage()));
        }
        if (event == null) {
            throw new InvalidEventException("$", "empty message");
        }
        if (!expected.isInstance(event)) {
            throw new InvalidEventException("type", "expected " + expected.getSimpleName() + ", got " + event.type());
        }
        List<Violation> violations = event.violations();
        if (!violations.isEmpty()) {
            throw new InvalidEventException(violations);
        }
        return expected.cast(event);
    }

    private static String path(JsonMappingException e) {
        String p = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."));
        return p.isEmpty() ? "$" : p.replace(".[", "[");
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
