package io.gantry.tuner.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.Limits;
import io.gantry.tuner.service.JobSubmissions;
import io.gantry.tuner.service.Rejection;
import io.gantry.tuner.service.TunerPreview;
import java.util.Iterator;
import java.util.Set;

/**
 * The body of {@code POST /jobs/{id}/retune}: {@code batchSize} (a whole number), {@code gpus} (whole GPUs per task,
 * 0 to {@link #MAX_GPUS_PER_TASK}) and a free-text {@code reason}. Either of the first two may be left out (null
 * here), not both: a request that changes nothing is a mistake better told than published.
 */
record RetuneRequest(Integer batchSize, Integer gpus, String reason) {

    /** The contract's largest task, in whole GPUs: a re-tune must not ask for a pod the event contract refuses. */
    static final int MAX_GPUS_PER_TASK = (int) (Limits.MAX_GPU_MILLI_PER_TASK / 1000);

    private static final Set<String> FIELDS = Set.of("batchSize", "gpus", "reason");
    private static final String SHAPE = "{\"batchSize\": <whole number>, \"gpus\": <whole GPUs per task>, "
            + "\"reason\": <text, optional>}";

    /** The body read; a 400 {@link JobSubmissions.Refused} naming the field otherwise. */
    static RetuneRequest read(String body) {
        if (body == null || body.isBlank()) {
            throw bad("body", "is required: " + SHAPE);
        }
        JsonNode n;
        try {
            n = EventCodec.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw new JobSubmissions.Refused(400, TunerPreview.unreadable(e));
        }
        if (n == null || !n.isObject()) {
            throw bad("body", "must be a JSON object " + SHAPE);
        }
        for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw bad(name, "is not a field of a re-tune request (batchSize, gpus, reason)");
            }
        }
        Integer batch = whole(n, "batchSize", "must be a whole number");
        Integer gpus = whole(n, "gpus", "must be a whole number of GPUs per task from 0 to " + MAX_GPUS_PER_TASK);
        if (batch == null && gpus == null) {
            throw bad("body", "needs batchSize, gpus or both: " + SHAPE);
        }
        if (gpus != null && (gpus < 0 || gpus > MAX_GPUS_PER_TASK)) {
            throw bad("gpus", "must be a whole number of GPUs per task from 0 to " + MAX_GPUS_PER_TASK
                    + ", was " + gpus);
        }
        JsonNode reason = n.get("reason");
        if (reason != null && !reason.isNull() && (!reason.isTextual() || reason.asText().length() > Limits.MAX_NAME_LENGTH)) {
            throw bad("reason", "must be text of at most " + Limits.MAX_NAME_LENGTH + " characters");
        }
        return new RetuneRequest(batch, gpus, reason == null || reason.isNull() ? null : reason.asText());
    }

    /** Field {@code name} as an int, null when absent or null; a 400 with {@code rule} and the value otherwise. */
    private static Integer whole(JsonNode n, String name, String rule) {
        JsonNode v = n.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw bad(name, rule + ", was " + v);
        }
        return v.asInt();
    }

    private static JobSubmissions.Refused bad(String field, String reason) {
        return new JobSubmissions.Refused(400, new Rejection(field, reason));
    }
}
