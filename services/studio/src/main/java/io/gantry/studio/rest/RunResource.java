package io.gantry.studio.rest;

import io.gantry.studio.mapping.RunViews;
import io.gantry.studio.service.RunSpecs;
import io.gantry.studio.service.RunTracker;
import io.gantry.studio.service.Runs;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** The user's runs: submit, list, detail, a live event stream, cancel. Another user's run is a 404. */
@Path("/api/runs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RunResource {

    private final Runs runs;
    private final RunTracker tracker;

    public RunResource(Runs runs, RunTracker tracker) {
        this.runs = runs;
        this.tracker = tracker;
    }

    @POST
    public Response submit(@HeaderParam(Caller.HEADER) String user, RunSpecs.Submit body) {
        return Caller.created(runs.submit(Caller.user(user), body));
    }

    @GET
    public List<Runs.Summary> list(@HeaderParam(Caller.HEADER) String user) {
        return runs.list(Caller.user(user));
    }

    @GET
    @Path("/{id}")
    public Runs.Detail detail(@HeaderParam(Caller.HEADER) String user, @PathParam("id") String id) {
        return runs.detail(Caller.user(user), id);
    }

    @POST
    @Path("/{id}/cancel")
    public Response cancel(@HeaderParam(Caller.HEADER) String user, @PathParam("id") String id) {
        runs.cancel(Caller.user(user), id);
        return Response.accepted(Map.of("state", "CANCELLING")).build();
    }

    /**
     * Server-Sent Events: {@code progress} (one point), {@code state} ({@code {state, reason}}), {@code tuning} (the
     * tuner's changes) and {@code result}; the history first, then each change as it happens.
     */
    @GET
    @Path("/{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void events(@HeaderParam(Caller.HEADER) String user, @PathParam("id") String id,
                       @Context SseEventSink sink, @Context Sse sse) {
        String caller = Caller.user(user);
        runs.requireOwned(caller, id);
        AtomicReference<Runnable> unsubscribe = new AtomicReference<>();
        unsubscribe.set(tracker.subscribe(id, () -> runs.history(caller, id), u -> {
            if (sink.isClosed()) {
                Runnable stop = unsubscribe.get();
                if (stop != null) {
                    stop.run();
                }
                return;
            }
            sink.send(event(sse, u));
        }));
    }

    private static OutboundSseEvent event(Sse sse, RunTracker.Update u) {
        return sse.newEventBuilder().name(u.kind()).data(RunViews.json(u.data())).build();
    }
}
