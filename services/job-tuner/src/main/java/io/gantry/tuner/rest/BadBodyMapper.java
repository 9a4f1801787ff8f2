package io.gantry.tuner.rest;

import io.gantry.tuner.service.Rejection;
import io.gantry.tuner.service.TunerPreview;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A preview body the tuner cannot take: 400 with the field at fault and the reason, as {@code {field, reason}}. */
@Provider
public class BadBodyMapper implements ExceptionMapper<TunerPreview.BadBody> {

    /** The 400 body. */
    public record FieldError(String field, String reason) {
    }

    @Override
    public Response toResponse(TunerPreview.BadBody e) {
        return answer(Response.Status.BAD_REQUEST.getStatusCode(), e.rejection());
    }

    static Response answer(int status, Rejection r) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(new FieldError(r.field(), r.reason())).build();
    }
}
