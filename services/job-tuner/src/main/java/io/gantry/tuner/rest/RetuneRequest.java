package io.gantry.tuner.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.Limits;
import io.gantry.tuner.service.JobSubmissions;
import io.gantry.tuner.service.Rejection;
import io.gantry.tuner.service.TunerPreview;
import java.util.Iterator;

/** The body of {@code POST /jobs/{id}/retune}: {@code batchSize} (required, a whole number) and a free-text {@code reason}. */
record RetuneRequest(int batchSize, String reason) {

    /** The body read; a 400 {@link JobSubmissions.Refused} naming the field otherwise. */
    static RetuneRequest read(String body) {
        if (body == null || body.isBlank()) {
            throw bad("body", "is required: {\"batchSize\": <whole number>, \"reason\": <text, optional>}");
        }
        JsonNode n;
        try {
            n = EventCodec.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw new JobSubmissions.Refused(400, TunerPreview.unreadable(e));
        }
        if (n == null || !n.isObject()) {
            throw bad("body", "must be a JSON object {\"batchSize\": <whole number>, \"reason\": <text, optional>}");
        }
        for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("batchSize") && !name.equals("reason")) {
                throw bad(name, "is not a field of a re-tune request (batchSize, reason)");
            }
        }
        JsonNode batch = n.get("batchSize");
        if (batch == null || batch.isNull()) {
            throw bad("batchSize", "is required");
        }
        if (!batch.isIntegralNumber() || !batch.canConvertToInt()) {
            throw bad("batchSize", "must be a whole number, was " + batch);
        }
        JsonNode reason = n.get("reason");
        if (reason != null && !reason.isNull() && (!reason.isTextual() || reason.asText().length() > Limits.MAX_NAME_LENGTH)) {
            throw bad("reason", "must be text of at most " + Limits.MAX_NAME_LENGTH + " characters");
        }
        return new RetuneRequest(batch.asInt(), reason == null || reason.isNull() ? null : reason.asText());
    }

    private static JobSubmissions.Refused bad(String field, String reason) {
        return new JobSubmissions.Refused(400, new Rejection(field, reason));
    }
}
