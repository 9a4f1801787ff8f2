package io.gantry.studio.rest;

import io.gantry.events.Names;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * Who is calling: the {@code X-Gantry-User} header. This is identification, not authentication: anyone who can reach
 * the studio can send any name (issue 17 brings JWT). It keeps users' graphs and runs apart, nothing more.
 */
final class Caller {

    static final String HEADER = "X-Gantry-User";

    private Caller() {
    }

    /** The caller's user name; 401 naming the header when it is missing or not a valid user name. */
    static String user(String header) {
        if (header == null || header.isBlank()) {
            throw unauthorized("is required: the user name the studio acts for");
        }
        if (!Names.isUser(header)) {
            throw unauthorized("must be " + Names.USER_RULE);
        }
        return header;
    }

    /** 201 with {@code entity}, what creating a graph or submitting a run answers. */
    static Response created(Object entity) {
        return Response.status(Response.Status.CREATED).entity(entity).build();
    }

    private static WebApplicationException unauthorized(String reason) {
        return new WebApplicationException(Response.status(Response.Status.UNAUTHORIZED).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("field", HEADER, "reason", reason)).build());
    }
}
