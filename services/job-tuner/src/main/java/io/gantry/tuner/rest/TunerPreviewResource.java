package io.gantry.tuner.rest;

import io.gantry.service.support.security.Roles;
import io.gantry.tuner.service.TunerPreview;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /tuner/preview}: what the tuner would change in a job, and why, without submitting it. 200 with the job
 * as it would be queued (also for an unknown model: it would pass through, and the summary says why); 400
 * {@code {field, reason}} when the body is unreadable or the pipeline would reject the job ({@link BadBodyMapper}).
 * Any Gantry token may ask (it changes nothing). The body is taken as text so the event codec's own JSON settings read it (see {@link TunerPreview}).
 */
@Path("/tuner")
public class TunerPreviewResource {

    private final TunerPreview preview;

    public TunerPreviewResource(TunerPreview preview) {
        this.preview = preview;
    }

    @POST
    @Path("/preview")
    @RolesAllowed({Roles.USER, Roles.OPERATOR, Roles.ADMIN})
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public TunerPreview.Preview preview(String body) {
        return preview.preview(body);
    }
}
