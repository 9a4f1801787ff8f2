package io.gantry.service.support.rest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.stream.Collectors;

/**
 * Where a request body that Jackson could not read went wrong, so a 400 can name the field.
 *
 * @param field     dotted path of the field (e.g. {@code tuning.maxGpus}, {@code tasks[0]}), or {@code body} when
 *                  the failure is not inside a field
 * @param malformed true for broken JSON syntax, false for a value of the wrong type or format
 * @param where     " at line L, column C" for broken syntax when Jackson knows it, else empty
 * @param message   the first line of Jackson's own message
 */
public record JsonBodyError(String field, boolean malformed, String where, String message) {

    /**
     * For broken syntax the field is where the parser stood (Jackson may wrap a parse error inside a mapping error
     * of the enclosing object, which would name only that object); for a wrong type, the mapping path.
     */
    public static JsonBodyError of(JsonProcessingException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonParseException p) {
                String path = p.getProcessor() == null ? "" : pathOf(p.getProcessor().getParsingContext());
                JsonLocation at = p.getLocation();
                String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
                return new JsonBodyError(path.isEmpty() ? "body" : path, true, where, firstLine(p.getOriginalMessage()));
            }
        }
        String message = firstLine(e.getOriginalMessage());
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String path = m.getPath().stream()
                    .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining(".")).replace(".[", "[");
            return new JsonBodyError(path, false, "", message);
        }
        return new JsonBodyError("body", !(e instanceof JsonMappingException), "", message);
    }

    /** The reason a 400 gives for this field: broken syntax (with where) or a wrong type, then Jackson's message. */
    public String reason() {
        return (malformed ? "is not valid JSON" + where : "has the wrong type or format") + ": " + message;
    }

    /** True when the failure was located inside a field rather than the body as a whole. */
    public boolean inField() {
        return !field.equals("body");
    }

    private static String pathOf(JsonStreamContext ctx) {
        StringBuilder sb = new StringBuilder();
        for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
            String part = c.inArray() ? "[" + c.getCurrentIndex() + "]" : c.getCurrentName();
            if (part != null) {
                sb.insert(0, sb.isEmpty() || sb.charAt(0) == '[' ? part : part + ".");
            }
        }
        return sb.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
