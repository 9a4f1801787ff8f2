package io.gantry.studio.rest;

import io.gantry.studio.service.DjlExport;
import io.gantry.studio.service.PytorchExport;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** A valid graph as source code to take away: DJL Java or PyTorch Python, as text/plain. */
@Path("/api/export")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.TEXT_PLAIN)
public class ExportResource {

    private final DjlExport djl;
    private final PytorchExport pytorch;

    public ExportResource(DjlExport djl, PytorchExport pytorch) {
        this.djl = djl;
        this.pytorch = pytorch;
    }

    @POST
    @Path("/djl")
    public String djl(@HeaderParam(Caller.HEADER) String user, GraphResource.GraphOnDataset body) {
        return GraphResource.GraphOnDataset.use(user, body, djl::export);
    }

    @POST
    @Path("/pytorch")
    public String pytorch(@HeaderParam(Caller.HEADER) String user, GraphResource.GraphOnDataset body) {
        return GraphResource.GraphOnDataset.use(user, body, pytorch::export);
    }
}
