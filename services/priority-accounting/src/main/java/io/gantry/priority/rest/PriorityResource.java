package io.gantry.priority.rest;

import io.gantry.events.UserPriority;
import io.gantry.priority.service.PriorityBook;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

@Path("/users")
@Produces(MediaType.APPLICATION_JSON)
public class PriorityResource {

    private final PriorityBook book;

    public PriorityResource(PriorityBook book) {
        this.book = book;
    }

    /** Every user's last published priority. */
    @GET
    public List<UserPriority> users() {
        return book.all();
    }
}
