package io.gantry.service.support.rest;

import io.gantry.service.support.EventIntake;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.PausableChannel;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Operators' view of a service's event flow, and pause/resume for channels configured {@code pausable=true}. */
@Path("/admin")
@Produces(MediaType.APPLICATION_JSON)
public class AdminStatusResource {

    private final EventIntake intake;
    private final ChannelRegistry channels;
    private final String service;

    public AdminStatusResource(EventIntake intake, ChannelRegistry channels,
                               @ConfigProperty(name = "quarkus.application.name") String service) {
        this.intake = intake;
        this.channels = channels;
        this.service = service;
    }

    /** Events consumed, produced, dead-lettered and ignored as duplicates, per channel, and the last event's time. */
    public record Status(String service, Map<String, Map<String, Long>> channels, Instant lastEventAt) {
    }

    public record ChannelState(String channel, boolean paused) {
    }

    @GET
    @Path("/status")
    public Status status() {
        return new Status(service, intake.totals(), intake.lastEventAt());
    }

    @POST
    @Path("/channels/{channel}/pause")
    public ChannelState pause(@PathParam("channel") String channel) {
        PausableChannel c = pausable(channel);
        c.pause();
        return new ChannelState(channel, c.isPaused());
    }

    @POST
    @Path("/channels/{channel}/resume")
    public ChannelState resume(@PathParam("channel") String channel) {
        PausableChannel c = pausable(channel);
        c.resume();
        return new ChannelState(channel, c.isPaused());
    }

    private PausableChannel pausable(String channel) {
        PausableChannel c = channels.getPausable(channel);
        if (c == null) {
            throw new NotFoundException("channel '" + channel + "' does not exist or is not pausable");
        }
        return c;
    }
}
