package io.gantry.service.support.rest;

import io.gantry.service.support.EventIntake;
import io.gantry.service.support.UnusedChannels;
import io.gantry.service.support.security.Roles;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.PausableChannel;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Operators' view of a service's event flow, and pause/resume for channels configured {@code pausable=true}: 404 for a
 * channel that is not pausable, 409 with the reason for one the service does not consume in its current mode
 * ({@link UnusedChannels}). Reading needs an operator or admin token, pausing and resuming an admin one.
 */
@Path("/admin")
@Produces(MediaType.APPLICATION_JSON)
public class AdminStatusResource {

    private final EventIntake intake;
    private final ChannelRegistry channels;
    private final String service;
    private final Instance<UnusedChannels> unused;

    public AdminStatusResource(EventIntake intake, ChannelRegistry channels,
                               @ConfigProperty(name = "quarkus.application.name") String service,
                               Instance<UnusedChannels> unused) {
        this.intake = intake;
        this.channels = channels;
        this.service = service;
        this.unused = unused;
    }

    /** Events consumed, produced, dead-lettered and ignored as duplicates, per channel, and the last event's time. */
    public record Status(String service, Map<String, Map<String, Long>> channels, Instant lastEventAt) {
    }

    public record ChannelState(String channel, boolean paused) {
    }

    /** The 409 answer: the channel, whether it is paused, and why it cannot be switched. */
    public record Refusal(String channel, boolean paused, String reason) {
    }

    @GET
    @Path("/status")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    public Status status() {
        return new Status(service, intake.totals(), intake.lastEventAt());
    }

    @POST
    @Path("/channels/{channel}/pause")
    @RolesAllowed(Roles.ADMIN)
    public ChannelState pause(@PathParam("channel") String channel) {
        return switched(channel, PausableChannel::pause);
    }

    @POST
    @Path("/channels/{channel}/resume")
    @RolesAllowed(Roles.ADMIN)
    public ChannelState resume(@PathParam("channel") String channel) {
        return switched(channel, PausableChannel::resume);
    }

    /** Pause and resume: {@code change} applied to a channel that may be switched, and the state it is left in. */
    private ChannelState switched(String channel, Consumer<PausableChannel> change) {
        PausableChannel c = pausable(channel);
        change.accept(c);
        return new ChannelState(channel, c.isPaused());
    }

    private PausableChannel pausable(String channel) {
        PausableChannel c = channels.getPausable(channel);
        if (c == null) {
            throw new NotFoundException("channel '" + channel + "' does not exist or is not pausable");
        }
        for (UnusedChannels u : unused) {
            Optional<String> why = u.unusedBecause(channel);
            if (why.isPresent()) {
                throw new ClientErrorException(Response.status(Response.Status.CONFLICT).type(MediaType.APPLICATION_JSON)
                        .entity(new Refusal(channel, c.isPaused(), why.get())).build());
            }
        }
        return c;
    }
}
