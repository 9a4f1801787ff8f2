package io.gantry.tuner.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobSubmitted;
import io.gantry.events.Names;
import io.gantry.events.Topics;
import io.gantry.tuner.messaging.SubmissionPublisher;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A job submitted over REST ({@code POST /jobs}), for people without a Kafka client. The body is a {@code JobSubmitted}
 * held to its contract ({@code checkBody}); its envelope is the service's: {@code eventId} is new and
 * {@code occurredAt} is now whatever the body says (a submitter must not pick the time it waits from, nor an event id
 * that consumers would take for a redelivery of another event), {@code type} and {@code schemaVersion} are set when
 * absent and checked when present. The job's {@code user} must be the caller, unless the caller is an admin; the
 * user's limits ({@link SubmissionLimits}) apply. An accepted job is on {@code gantry.jobs.submitted} before the answer,
 * and from there is tuned or rejected as any submission is.
 */
@ApplicationScoped
public class JobSubmissions {

    private static final long PUBLISH_TIMEOUT_S = 10;

    /** The answer to an accepted submission. */
    public record Accepted(String jobId, String user, String eventId, String topic) {
    }

    /** A submission refused with an HTTP status and the field and reason, as a {@code JobRejected} states them. */
    public static final class Refused extends RuntimeException {
        private final transient SubmissionLimits.Refused refusal;

        public Refused(int status, Rejection rejection) {
            this(new SubmissionLimits.Refused(status, rejection));
        }

        public Refused(SubmissionLimits.Refused refusal) {
            super(refusal.status() + " " + refusal.rejection().field() + ": " + refusal.rejection().reason());
            this.refusal = refusal;
        }

        /** The status and the {@code {field, reason}} to answer with. */
        public SubmissionLimits.Refused refusal() {
            return refusal;
        }
    }

    private final SubmissionLimits limits;
    private final SubmissionPublisher publisher;

    public JobSubmissions(SubmissionLimits limits, SubmissionPublisher publisher) {
        this.limits = limits;
        this.publisher = publisher;
    }

    /**
     * Checks and publishes the job in {@code body} for {@code caller} (the token's name); {@code admin}: the caller may
     * submit in any user's name. Throws {@link Refused}: 400 for a body the contract refuses, 403 for another user's
     * name, 409 for a job id already pending here, 429 for a limit, 503 when Kafka does not take it.
     */
    public Accepted submit(String caller, boolean admin, String body) {
        JobSubmitted job = read(body);
        if (!admin && !job.user().equals(caller)) {
            throw new Refused(403, new Rejection("user", "must be your own user name" + (Names.isUser(caller)
                    ? " ('" + caller + "')" : "") + ": a user submits only in their own name (an admin may submit for anyone)"));
        }
        if (limits.admit(job.user(), job.jobId()) instanceof SubmissionLimits.Refused r) {
            throw new Refused(r);
        }
        try {
            publisher.publish(job).toCompletableFuture().get(PUBLISH_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            limits.withdraw(job.jobId());
            throw new Refused(503, new Rejection("body", "was not submitted: Kafka did not take it within "
                    + PUBLISH_TIMEOUT_S + " s (" + e.getClass().getSimpleName() + "); nothing was published, submit again"));
        } catch (InterruptedException e) {
            limits.withdraw(job.jobId());
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        }
        return new Accepted(job.jobId(), job.user(), job.eventId(), Topics.JOBS_SUBMITTED);
    }

    /** The body as a valid {@code JobSubmitted} with the service's envelope; 400 {@link Refused} otherwise. */
    static JobSubmitted read(String body) {
        if (body == null || body.isBlank()) {
            throw new Refused(400, new Rejection("body", "is required: a JobSubmitted JSON object"));
        }
        JsonNode tree;
        try {
            tree = EventCodec.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw new Refused(400, TunerPreview.unreadable(e));
        }
        if (!(tree instanceof ObjectNode o)) {
            throw new Refused(400, new Rejection("body", "must be a JobSubmitted JSON object"));
        }
        if (!o.has("type")) {
            o.put("type", JobSubmitted.TYPE);
        }
        if (!o.has("schemaVersion")) {
            o.put("schemaVersion", GantryEvent.SCHEMA_VERSION);
        }
        o.put("eventId", Events.newId());
        o.put("occurredAt", Instant.now().toString());
        try {
            return EventCodec.decode(o.toString(), JobSubmitted.class);
        } catch (InvalidEventException e) {
            throw new Refused(400, Rejection.of(e.violations()));
        }
    }
}
