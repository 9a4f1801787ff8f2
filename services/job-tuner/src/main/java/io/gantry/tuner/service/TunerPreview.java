package io.gantry.tuner.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import io.gantry.events.Violation;
import io.gantry.service.support.rest.JsonBodyError;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * "What would the tuner do with this job, and why?" without submitting it. The body is a {@code JobSubmitted}'s JSON;
 * the envelope ({@code type}, {@code eventId}, {@code schemaVersion}, {@code occurredAt}) may be there or not and is
 * ignored, and {@code jobId} and {@code user} are optional, because none of them changes the decision — so a person can
 * post the few fields that matter and a tool can post the very event it would publish. The body is read with the
 * event codec's own JSON settings and then checked by the event contract and the tuner's limits, so a body the
 * preview accepts is one the pipeline would accept, and a rejection reads the same as the pipeline's
 * {@code JobRejected}.
 */
@ApplicationScoped
public class TunerPreview {

    static final String PREVIEW_ID = "preview";

    /** The body: the fields of {@code JobSubmitted} that describe the job. */
    public record Request(String jobId, String user, String jobName, String model, Integer tasks, ResourceAmounts perTask,
                          Integer batchSize, Integer epochs, Double durationS, TuningOptions tuning) {
    }

    /** The answer: the job as it would be queued, with every change and its reason. */
    public record Preview(String outcome, int tasks, ResourceAmounts perTask, Integer batchSize, Integer epochs,
                          Double durationS, Double predictedDurationS, List<TuningChange> changes, String summary) {
    }

    /** The body cannot be tuned: what the pipeline would say in a {@code JobRejected}, or why the JSON is unreadable. */
    public static final class BadBody extends RuntimeException {
        private final transient Rejection rejection;

        public BadBody(Rejection rejection) {
            super(rejection.field() + ": " + rejection.reason());
            this.rejection = rejection;
        }

        public Rejection rejection() {
            return rejection;
        }
    }

    private final JobTuner tuner;

    public TunerPreview(JobTuner tuner) {
        this.tuner = tuner;
    }

    public Preview preview(String body) {
        JobSubmitted job = asSubmission(read(body));
        List<Violation> violations = job.violations();
        if (!violations.isEmpty()) {
            throw new BadBody(Rejection.of(violations));
        }
        JobTuner.Decision d = tuner.decide(job);
        if (d instanceof JobTuner.Rejected r) {
            throw new BadBody(new Rejection(r.event().field(), r.event().reason()));
        }
        JobTuned t = ((JobTuner.Tuned) d).event();
        return new Preview(d.outcome().label(), t.tasks(), t.perTask(), t.batchSize(), t.epochs(), t.durationS(),
                t.predictedDurationS(), t.changes(), t.summary());
    }

    private static Request read(String body) {
        if (body == null || body.isBlank()) {
            throw new BadBody(new Rejection("body", "is required: a JobSubmitted-shaped JSON object"));
        }
        Request r;
        try {
            r = EventCodec.mapper().readValue(body, Request.class);
        } catch (JsonProcessingException e) {
            throw new BadBody(unreadable(e));
        }
        if (r == null) {
            throw new BadBody(new Rejection("body", "is required: a JobSubmitted-shaped JSON object, was null"));
        }
        return r;
    }

    private static JobSubmitted asSubmission(Request r) {
        if (r.tasks() == null) {
            // The contract's tasks is a plain int: absent must read as missing, not as 0.
            throw new BadBody(new Rejection("tasks", "is required"));
        }
        return new JobSubmitted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(),
                r.jobId() == null ? PREVIEW_ID : r.jobId(), r.user() == null ? PREVIEW_ID : r.user(), r.jobName(), r.model(),
                r.tasks(), r.perTask(), r.batchSize(), r.epochs(), r.durationS(), r.tuning());
    }

    /**
     * Names the field the JSON broke at: where the parser stood for malformed JSON (Jackson may wrap that inside a
     * mapping error of the enclosing object, which would name only the object), else the mapping path of a wrong type.
     */
    public static Rejection unreadable(JsonProcessingException e) {
        JsonBodyError err = JsonBodyError.of(e);
        if (err.malformed()) {
            return new Rejection(err.field(), "malformed JSON: " + err.message());
        }
        if (err.inField()) {
            return new Rejection(err.field(), "has the wrong type or format: " + err.message());
        }
        return new Rejection("body", "cannot be read as a JobSubmitted-shaped JSON object: " + err.message());
    }
}
