package io.gantry.service.support.rest;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every request body is bounded by {@code quarkus.http.limits.max-body-size} (each service sets it). A request whose
 * {@code Content-Length} says it is larger gets 413 with a JSON reason before any of its body is read or any
 * authentication runs, rather than Vert.x's bare 413; a chunked body that grows past the bound is cut off by Quarkus
 * itself (a 413 without a body). Nothing larger than the bound is ever held in memory.
 */
@ApplicationScoped
public class BodySizeLimit {

    /** Before Quarkus's own body-size check (order -2) and every other route. */
    static final int ORDER = -3;

    private final Optional<MemorySize> limit;

    public BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> limit) {
        this.limit = limit;
    }

    void route(@Observes Router router) {
        if (limit.isEmpty()) {
            return;
        }
        long max = limit.get().asLongValue();
        router.route().order(ORDER).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            long n;
            try {
                n = length == null ? -1 : Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n > max) {
                ctx.response().setStatusCode(413).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .putHeader(HttpHeaders.CONNECTION, "close")
                        .end("{\"field\":\"body\",\"reason\":\"is " + n + " bytes, more than the " + max
                                + " a request to this service may have (quarkus.http.limits.max-body-size)\"}");
                return;
            }
            ctx.next();
        });
    }
}
