package io.gantry.tuner.rest;

import io.gantry.service.support.security.Roles;
import io.gantry.events.JobTuned;
import io.gantry.events.Topics;
import io.gantry.tuner.messaging.TunedPublisher;
import io.gantry.tuner.service.JobSubmissions;
import io.gantry.tuner.service.LiveRetunes;
import io.gantry.tuner.service.Rejection;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /jobs}: submit a job without a Kafka client. Role {@code user}; the job's {@code user} must be the
 * token's own name ({@code upn}, else {@code preferred_username}, else {@code sub}), except for an admin, who may submit
 * for anyone. 202 {@code {jobId, user, eventId, topic}} once the submission is on {@code gantry.jobs.submitted}; 400,
 * 403, 409, 429 and 503 as {@code {field, reason}} ({@link JobSubmissions}, {@link BadBodyMapper}).
 */
@Path("/jobs")
public class JobSubmissionResource {

    private static final long PUBLISH_TIMEOUT_S = 10;

    @Inject
    JobSubmissions submissions;

    /** The caller, checked against the job's user by {@link JobSubmissions}. */
    @Inject
    SecurityIdentity identity;

    @Inject
    LiveRetunes retunes;

    @Inject
    TunedPublisher tuned;

    @POST
    @RolesAllowed(Roles.USER)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response submit(String body) {
        return Response.accepted(submissions.submit(identity.getPrincipal().getName(), identity.hasRole(Roles.ADMIN), body))
                .build();
    }

    /**
     * {@code POST /jobs/{id}/retune} {@code {"batchSize": 64, "reason": "..."}}: re-tunes a real training job while it
     * runs (role {@code admin}). 202 {@code {jobId, revision, eventId, topic, batchSize, learningRate}} once its
     * {@code JobTuned} update is on {@code gantry.jobs.tuned}; 400, 404, 409 and 503 as {@code {field, reason}}
     * ({@link LiveRetunes#requested}).
     */
    @POST
    @Path("/{id}/retune")
    @RolesAllowed(Roles.ADMIN)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response retune(@PathParam("id") String jobId, String body) {
        RetuneRequest request = RetuneRequest.read(body);
        JobTuned update = retunes.requested(jobId, request.batchSize(), request.reason());
        try {
            tuned.publish(update).toCompletableFuture().get(PUBLISH_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new JobSubmissions.Refused(503, new Rejection("body", "was not applied: Kafka did not take the "
                    + "update within " + PUBLISH_TIMEOUT_S + " s (" + e.getClass().getSimpleName() + "); ask again"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        }
        retunes.tuned(update, null);
        return Response.accepted(new Retuned(jobId, update.revision(), update.eventId(), Topics.JOBS_TUNED,
                update.training().batchSize(), update.training().learningRate())).build();
    }

    /** The answer to an accepted re-tune. */
    public record Retuned(String jobId, int revision, String eventId, String topic, int batchSize, double learningRate) {
    }
}
