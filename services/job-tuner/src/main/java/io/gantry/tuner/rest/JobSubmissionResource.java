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
     * {@code POST /jobs/{id}/retune} {@code {"batchSize": 64, "gpus": 2, "reason": "..."}} (either of batch size and
     * GPUs per task, or both): re-tunes a real training job while it runs, without resubmitting it and so without
     * losing its progress (role {@code admin}: it changes a running job another user owns, and a GPU change takes
     * cluster capacity). 202 {@link Retuned} once its {@code JobTuned} update is on {@code gantry.jobs.tuned}, not
     * before: an answer must not promise an update Kafka never took. 400, 404, 409 and 503 as {@code {field, reason}}
     * ({@link RetuneRequest}, {@link LiveRetunes#requested}).
     */
    @POST
    @Path("/{id}/retune")
    @RolesAllowed(Roles.ADMIN)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response retune(@PathParam("id") String jobId, String body) {
        RetuneRequest request = RetuneRequest.read(body);
        JobTuned update = retunes.requested(jobId, request.batchSize(), request.gpus(), request.reason());
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
                update.training().batchSize(), update.training().learningRate(),
                update.perTask().gpuMilli() / 1000.0)).build();
    }

    /**
     * The answer to an accepted re-tune: the update's revision and event, and the job as it now stands (whether or not
     * each value changed), so the caller need not read the topic to see the result.
     *
     * @param gpus GPUs per task of the update ({@code perTask.gpuMilli} ÷ 1000), a number rather than a whole count
     *             because a job submitted with a fraction of a GPU keeps it when only its batch is re-tuned
     */
    public record Retuned(String jobId, int revision, String eventId, String topic, int batchSize, double learningRate,
                          double gpus) {
    }
}
