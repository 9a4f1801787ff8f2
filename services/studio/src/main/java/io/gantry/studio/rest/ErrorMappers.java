package io.gantry.studio.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gantry.service.support.rest.JsonBodyError;
import io.gantry.studio.service.BadRequest;
import io.gantry.studio.service.Conflict;
import io.gantry.studio.service.FieldError;
import io.gantry.studio.service.NotFound;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The studio's error answers: 400 {@code {"errors":[{field, nodeId, reason}], field, nodeId, reason}} (the first error
 * mirrored at the top), 404 and 409 {@code {"reason"}}.
 */
public class ErrorMappers {

    @ServerExceptionMapper
    public Response badRequest(BadRequest e) {
        return badRequest(e.errors());
    }

    @ServerExceptionMapper
    public Response notFound(NotFound e) {
        return reason(Response.Status.NOT_FOUND, e.getMessage());
    }

    @ServerExceptionMapper
    public Response conflict(Conflict e) {
        return reason(Response.Status.CONFLICT, e.getMessage());
    }

    /**
     * A body Jackson cannot read (Quarkus's reader wraps its exception in a bare 400): 400 naming the field where it
     * went wrong. Any other WebApplicationException keeps its own answer.
     */
    @ServerExceptionMapper({WebApplicationException.class, JsonProcessingException.class})
    public Response unreadableBody(Exception e) {
        Throwable json = e instanceof JsonProcessingException ? e : e.getCause();
        if (!(json instanceof JsonProcessingException j)) {
            return ((WebApplicationException) e).getResponse();
        }
        JsonBodyError err = JsonBodyError.of(j);
        return badRequest(List.of(FieldError.of(err.field(), err.reason())));
    }

    static Response badRequest(List<FieldError> errors) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("errors", errors);
        FieldError first = errors.get(0);
        body.put("field", first.field());
        body.put("nodeId", first.nodeId());
        body.put("reason", first.reason());
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON).entity(body).build();
    }

    private static Response reason(Response.Status status, String reason) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(Map.of("reason", reason)).build();
    }
}
