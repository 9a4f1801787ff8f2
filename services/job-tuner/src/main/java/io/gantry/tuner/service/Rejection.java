package io.gantry.tuner.service;

import io.gantry.events.Violation;
import java.util.List;

/**
 * Why a job will not run, as one field and one reason: the first violation names the field, and any further ones
 * are appended to the reason so the submitter learns every problem at once. The same text goes into a
 * {@code JobRejected} event and a 400 answer of the preview, so the two never disagree.
 */
public record Rejection(String field, String reason) {

    public static Rejection of(List<Violation> violations) {
        if (violations.isEmpty()) {
            throw new IllegalArgumentException("a rejection needs at least one violation");
        }
        StringBuilder reason = new StringBuilder(violations.get(0).reason());
        for (Violation v : violations.subList(1, violations.size())) {
            reason.append("; also ").append(v.field()).append(": ").append(v.reason());
        }
        return new Rejection(violations.get(0).field(), reason.toString());
    }
}
