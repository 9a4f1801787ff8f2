package io.gantry.ingest.rest;

import io.gantry.ingest.service.IngestStatus;
import io.gantry.ingest.service.MetricsIngestor;
import io.gantry.service.support.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** For operators: the source, the last good read, the current failure streak and the node counts. */
@Path("/ingest/status")
@RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
public class IngestStatusResource {

    private final MetricsIngestor ingestor;

    public IngestStatusResource(MetricsIngestor ingestor) {
        this.ingestor = ingestor;
    }

    @GET
    public IngestStatus status() {
        return ingestor.status();
    }
}
