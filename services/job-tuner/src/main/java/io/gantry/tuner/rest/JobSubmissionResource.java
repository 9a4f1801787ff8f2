package io.gantry.tuner.rest;

import io.gantry.service.support.security.Roles;
import io.gantry.tuner.service.JobSubmissions;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /jobs}: submit a job without a Kafka client. Role {@code user}; the job's {@code user} must be the
 * token's own name ({@code upn}, else {@code preferred_username}, else {@code sub}), except for an admin, who may submit
 * for anyone. 202 {@code {jobId, user, eventId, topic}} once the submission is on {@code gantry.jobs.submitted}; 400,
 * 403, 409, 429 and 503 as {@code {field, reason}} ({@link JobSubmissions}, {@link BadBodyMapper}).
 */
@Path("/jobs")
public class JobSubmissionResource {

    @Inject
    JobSubmissions submissions;

    /** The caller, checked against the job's user by {@link JobSubmissions}. */
    @Inject
    SecurityIdentity identity;

    @POST
    @RolesAllowed(Roles.USER)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response submit(String body) {
        return Response.accepted(submissions.submit(identity.getPrincipal().getName(), identity.hasRole(Roles.ADMIN), body))
                .build();
    }
}
