package io.gantry.studio.rest;

import io.gantry.events.ModelGraph;
import io.gantry.studio.service.BadRequest;
import io.gantry.studio.service.GraphValidation;
import io.gantry.studio.service.Graphs;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.function.BiFunction;

/** Live validation of a graph being edited, and the user's saved, versioned graphs. */
@Path("/api/graphs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class GraphResource {

    /** A graph and the dataset it is meant for: the body of validate and of the exports. */
    public record GraphOnDataset(ModelGraph graph, String dataset) {

        /**
         * What {@code use} makes of the graph and dataset of {@code body}: 401 without a valid user, 400 naming the
         * body when the request had none. Validate and both exports take their body this way.
         */
        static <R> R use(String user, GraphOnDataset body, BiFunction<ModelGraph, String, R> use) {
            Caller.user(user);
            if (body == null) {
                throw new BadRequest("body", "is required: {\"graph\": ..., \"dataset\": ...}");
            }
            return use.apply(body.graph(), body.dataset());
        }
    }

    private final GraphValidation validation;
    private final Graphs graphs;

    public GraphResource(GraphValidation validation, Graphs graphs) {
        this.validation = validation;
        this.graphs = graphs;
    }

    /** 200 with every node's shape or error for a well-formed body (valid or not); 400 for no graph or dataset. */
    @POST
    @Path("/validate")
    public GraphValidation.Report validate(@HeaderParam(Caller.HEADER) String user, GraphOnDataset body) {
        return GraphOnDataset.use(user, body, validation::validate);
    }

    @POST
    public Response create(@HeaderParam(Caller.HEADER) String user, Graphs.Save body) {
        return Caller.created(graphs.create(Caller.user(user), body));
    }

    @GET
    public List<Graphs.Listed> list(@HeaderParam(Caller.HEADER) String user) {
        return graphs.list(Caller.user(user));
    }

    @GET
    @Path("/{id}")
    public Graphs.Detail detail(@HeaderParam(Caller.HEADER) String user, @PathParam("id") long id) {
        return graphs.detail(Caller.user(user), id);
    }

    @PUT
    @Path("/{id}")
    public Graphs.Saved update(@HeaderParam(Caller.HEADER) String user, @PathParam("id") long id, Graphs.Save body) {
        return graphs.update(Caller.user(user), id, body);
    }
}
