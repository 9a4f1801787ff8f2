package io.gantry.priority.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gantry.events.Limits;
import io.gantry.events.Names;
import io.gantry.priority.messaging.PriorityPublisher;
import io.gantry.priority.persistence.JobRun;
import io.gantry.priority.persistence.UsageInterval;
import io.gantry.priority.persistence.UserAccount;
import io.gantry.priority.rest.ProblemResponse.FieldError;
import io.gantry.priority.service.AccountingStore;
import io.gantry.priority.service.PriorityBook;
import io.gantry.scheduling.fairness.DynamicPriority;
import io.gantry.service.support.rest.JsonBodyError;
import io.gantry.service.support.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Admin API for users, their base priorities and entitlements, their usage, and the fairness picture. Changes need an
 * admin token; a user's token reads only that user's entry and usage, an operator's reads everything.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class PriorityResource {

    /** Keeps base priorities within a range where adding the fair-share term stays exact in a double. */
    private static final double MAX_ABS_BASE_PRIORITY = 1e6;
    /** Entitlement shares are weight ÷ the sum of weights: bounded, so the sum stays finite however many users there are. */
    private static final double MAX_WEIGHT = 1e6;

    /** Body of create/update; on update a null field keeps its value. */
    public record UserRequest(String name, Double basePriority, Double weight, Integer maxGpus) {
    }

    public record UserView(String name, double basePriority, double weight, Integer maxGpus, double priority,
                           double fairShareFactor, String explanation) {
    }

    public record IntervalView(String jobId, Instant start, Instant end, double gpuSeconds, double cpuSeconds,
                               double memoryMibSeconds) {
    }

    public record UsageView(String user, double decayedGpuSeconds, double halfLifeS, double gpuSeconds,
                            double cpuSeconds, double memoryMibSeconds, double runningGpus, List<IntervalView> intervals) {
    }

    private final AccountingStore store;
    private final PriorityBook book;
    private final PriorityPublisher publisher;
    private final SecurityIdentity identity;

    public PriorityResource(AccountingStore store, PriorityBook book, PriorityPublisher publisher,
                            SecurityIdentity identity) {
        this.identity = identity;
        this.store = store;
        this.book = book;
        this.publisher = publisher;
    }

    @GET
    @Path("users")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    public List<UserView> users() {
        Map<String, DynamicPriority.Assessment> now = book.assess(Instant.now());
        return now.values().stream().map(a -> view(store.user(a.tenant()).orElse(null), a)).toList();
    }

    @GET
    @Path("users/{name}")
    @RolesAllowed({Roles.USER, Roles.OPERATOR, Roles.ADMIN})
    public Response user(@PathParam("name") String name) {
        return readable(name, u -> Response.ok(view(u, book.assess(Instant.now()).get(name))).build());
    }

    @POST
    @Path("users")
    @RolesAllowed(Roles.ADMIN)
    public Response create(UserRequest body) {
        List<FieldError> errors = new ArrayList<>();
        if (body == null) {
            return ProblemResponse.badRequest(List.of(new FieldError("body", "is required")));
        }
        if (!Names.isUser(body.name())) {
            errors.add(new FieldError("name", "is required: " + Names.USER_RULE));
        }
        validate(body, errors);
        if (!errors.isEmpty()) {
            return ProblemResponse.badRequest(errors);
        }
        if (store.user(body.name()).isPresent()) {
            return ProblemResponse.conflict("user '" + body.name() + "' exists: PUT /users/" + body.name() + " to change it");
        }
        UserAccount u = store.upsertUser(body.name(), body.basePriority(), body.weight(), body.maxGpus());
        return changed(u, 201);
    }

    @PUT
    @Path("users/{name}")
    @RolesAllowed(Roles.ADMIN)
    public Response update(@PathParam("name") String name, UserRequest body) {
        if (!Names.isUser(name)) {
            // No such user can exist, and the name must not reach the database (a column of 200 characters).
            return ProblemResponse.badRequest(List.of(new FieldError("name", "must be " + Names.USER_RULE)));
        }
        if (store.user(name).isEmpty()) {
            return unknownUser(name);
        }
        if (body == null) {
            return ProblemResponse.badRequest(List.of(new FieldError("body", "is required")));
        }
        List<FieldError> errors = new ArrayList<>();
        if (body.name() != null && !body.name().equals(name)) {
            errors.add(new FieldError("name", "must be absent or equal the user in the path ('" + name + "')"));
        }
        validate(body, errors);
        if (!errors.isEmpty()) {
            return ProblemResponse.badRequest(errors);
        }
        return changed(store.upsertUser(name, body.basePriority(), body.weight(), body.maxGpus()), 200);
    }

    @GET
    @Path("users/{name}/usage")
    @RolesAllowed({Roles.USER, Roles.OPERATOR, Roles.ADMIN})
    public Response usage(@PathParam("name") String name) {
        return readable(name, u -> usageOf(name));
    }

    private Response usageOf(String name) {
        List<UsageInterval> intervals = store.intervals(name);
        double running = store.runningJobs(name).stream().mapToDouble(JobRun::gpus).sum();
        DynamicPriority.Assessment a = book.assess(Instant.now()).get(name);
        List<IntervalView> views = intervals.stream().map(i -> new IntervalView(i.jobId, i.intervalStart, i.intervalEnd,
                i.gpuSeconds, i.cpuSeconds, i.memoryMibSeconds)).toList();
        return Response.ok(new UsageView(name, a == null ? 0 : a.decayedGpuSeconds(), book.halfLifeS(),
                intervals.stream().mapToDouble(i -> i.gpuSeconds).sum(),
                intervals.stream().mapToDouble(i -> i.cpuSeconds).sum(),
                intervals.stream().mapToDouble(i -> i.memoryMibSeconds).sum(), running, views)).build();
    }

    @GET
    @Path("fairness")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    public PriorityBook.Fairness fairness() {
        return book.fairness(Instant.now());
    }

    /**
     * Quarkus's JSON reader turns what Jackson cannot read into a bare 400 {@link WebApplicationException}, with
     * Jackson's exception as the cause: answer it like any other bad input, naming the field.
     */
    @ServerExceptionMapper
    public Response unreadableBody(WebApplicationException e) {
        return e.getCause() instanceof JsonProcessingException j ? badJson(j) : e.getResponse();
    }

    /**
     * A body that is not JSON or has a value of the wrong type: 400 naming the field Jackson stopped at. For broken
     * syntax that is where the parser stood (the field whose value was being read, or {@code body} before the first
     * field), with the line and column in the reason.
     */
    @ServerExceptionMapper
    public Response badJson(JsonProcessingException e) {
        JsonBodyError err = JsonBodyError.of(e);
        return ProblemResponse.badRequest(List.of(new FieldError(err.field(), err.reason())));
    }

    private static void validate(UserRequest body, List<FieldError> errors) {
        if (body.basePriority() != null && !(Math.abs(body.basePriority()) <= MAX_ABS_BASE_PRIORITY)) {
            errors.add(new FieldError("basePriority", "must be a number between -1e6 and 1e6"));
        }
        if (body.weight() != null && !(body.weight() > 0 && body.weight() <= MAX_WEIGHT)) {
            errors.add(new FieldError("weight", "must be a number > 0 and at most 1e6"));
        }
        if (body.maxGpus() != null && !(body.maxGpus() >= 0 && body.maxGpus() <= Limits.MAX_GPUS)) {
            errors.add(new FieldError("maxGpus", "must be between 0 and " + Limits.MAX_GPUS));
        }
    }

    /**
     * What {@code read} answers for the user {@code name} when the caller may read that user's entry: 403 for another
     * user's (whether or not it exists), 404 for a user that does not exist.
     */
    private Response readable(String name, Function<UserAccount, Response> read) {
        if (!Roles.mayRead(identity, name)) {
            return notYours();
        }
        if (!Names.isUser(name)) {
            return unknownUser(name);
        }
        return store.user(name).map(read).orElseGet(() -> unknownUser(name));
    }

    /** 403 for another user's entry, whether or not it exists (the answer tells no names). */
    private static Response notYours() {
        return Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "a user's token reads only that user's own entry and usage")).build();
    }

    /** 404; a name that breaks the rule is not echoed back (it may be huge or hold markup). */
    private static Response unknownUser(String name) {
        return ProblemResponse.notFound(Names.isUser(name) ? "unknown user '" + name + "'"
                : "unknown user: no user has such a name");
    }

    private Response changed(UserAccount u, int status) {
        book.userChanged(u);
        publisher.publish(book.publications(Instant.now()));
        return Response.status(status).entity(view(u, book.assess(Instant.now()).get(u.name))).build();
    }

    private static UserView view(UserAccount u, DynamicPriority.Assessment a) {
        return new UserView(a.tenant(), a.basePriority(), a.weight(), u == null ? null : u.maxGpus, a.priority(),
                a.fairShareFactor(), a.explanation());
    }
}
