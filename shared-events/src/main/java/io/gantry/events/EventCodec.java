package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    /** Every event type by the name its {@code type} field carries. */
    private static final Map<String, Class<?>> TYPES = Arrays.stream(
                    GantryEvent.class.getAnnotation(JsonSubTypes.class).value())
            .collect(Collectors.toUnmodifiableMap(JsonSubTypes.Type::name, JsonSubTypes.Type::value));

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
        if (json.length() > Limits.MAX_EVENT_LENGTH) {
            // Before parsing: nothing of a record this large is read into a tree.
            throw new InvalidEventException("$", "is " + json.length() + " characters, more than the "
                    + Limits.MAX_EVENT_LENGTH + " an event may have");
        }
        GantryEvent event;
        try {
            JsonNode tree = MAPPER.readTree(json);
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                throw new InvalidEventException("$", "empty message");
            }
            if (!tree.isObject()) {
                throw new InvalidEventException("$", "must be a JSON object, was " + tree.getNodeType().toString().toLowerCase(Locale.ROOT));
            }
            requireType(tree.get("type"), expected);
            event = MAPPER.treeToValue(tree, GantryEvent.class);
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
        List<Violation> violations = event.violations();
        if (!violations.isEmpty()) {
            throw new InvalidEventException(violations);
        }
        return expected.cast(event);
    }

    /**
     * Refuses an event of another known type before its body is read, so a {@code JobCompleted} on the submissions topic
     * is named as the wrong type rather than as a {@code JobSubmitted} with odd fields. An unknown or missing type is
     * left to the mapper, which names it.
     */
    private static void requireType(JsonNode type, Class<? extends GantryEvent> expected) {
        Class<?> actual = type != null && type.isTextual() ? TYPES.get(type.asText()) : null;
        if (actual != null && !expected.isAssignableFrom(actual)) {
            throw new InvalidEventException("type", "expected " + expected.getSimpleName() + ", got " + type.asText());
        }
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
