package io.gantry.studio.rest;

import io.gantry.studio.service.RemoteReads;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;

/** The caller and their fair-share priority and usage, as priority-accounting reports them. */
@Path("/api/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    private final RemoteReads remote;

    public MeResource(RemoteReads remote) {
        this.remote = remote;
    }

    /** {@code priority} and {@code usage} are null, with {@code priorityReason} / {@code usageReason}, when unknown. */
    @GET
    public Map<String, Object> me(@HeaderParam(Caller.HEADER) String header) {
        String user = Caller.user(header);
        RemoteReads.Answer priority = remote.priority(user);
        RemoteReads.Answer usage = remote.usage(user);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("user", user);
        out.put("priority", priority.json());
        out.put("usage", usage.json());
        out.put("reason", priority.reason());
        out.put("usageReason", usage.reason());
        return out;
    }
}
