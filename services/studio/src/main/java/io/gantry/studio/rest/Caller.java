package io.gantry.studio.rest;

import io.gantry.events.Names;
import io.gantry.service.support.security.Roles;
import io.gantry.studio.config.StudioConfig;
import io.quarkus.arc.Arc;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * Who is calling. With a bearer token (README "Security"): the token's user, who needs role {@code user}; an
 * {@code X-Gantry-User} header beside it must name that same user (403 otherwise), so a token of bob never acts for
 * alice. Without a token: the {@code X-Gantry-User} header, only where {@code gantry.studio.trust-user-header} is on
 * (the quick start on one machine; identification, not authentication); else 401.
 */
final class Caller {

    static final String HEADER = "X-Gantry-User";
    static final String AUTHORIZATION = "Authorization";

    private Caller() {
    }

    /** The caller's user name; 401 or 403 naming the header at fault. */
    static String user(String header) {
        SecurityIdentity identity = Arc.container().instance(SecurityIdentity.class).get();
        boolean named = header != null && !header.isBlank();
        if (!identity.isAnonymous()) {
            String name = identity.getPrincipal().getName();
            if (!identity.hasRole(Roles.USER)) {
                throw refused(Response.Status.FORBIDDEN, AUTHORIZATION, "the token lacks the role user, which the studio's pages need");
            }
            if (!Names.isUser(name)) {
                throw refused(Response.Status.FORBIDDEN, AUTHORIZATION, "the token's user is not a Gantry user name: " + Names.USER_RULE);
            }
            if (named && !header.equals(name)) {
                throw refused(Response.Status.FORBIDDEN, HEADER, "must be absent or the token's own user ('" + name + "')");
            }
            return name;
        }
        if (!Arc.container().instance(StudioConfig.class).get().trustUserHeader()) {
            throw refused(Response.Status.UNAUTHORIZED, AUTHORIZATION,
                    "is required: a bearer token with role user (X-Gantry-User alone is trusted only where "
                            + "gantry.studio.trust-user-header is on, as in the quick start)");
        }
        if (!named) {
            throw refused(Response.Status.UNAUTHORIZED, HEADER, "is required: the user name the studio acts for");
        }
        if (!Names.isUser(header)) {
            throw refused(Response.Status.UNAUTHORIZED, HEADER, "must be " + Names.USER_RULE);
        }
        return header;
    }

    /** 201 with {@code entity}, what creating a graph or submitting a run answers. */
    static Response created(Object entity) {
        return Response.status(Response.Status.CREATED).entity(entity).build();
    }

    private static WebApplicationException refused(Response.Status status, String field, String reason) {
        return new WebApplicationException(Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("field", field, "reason", reason)).build());
    }
}
