package io.gantry.scheduler.rest;

import io.gantry.scheduler.service.PendingExplanation;
import io.gantry.scheduler.service.SchedulerLoop;
import io.gantry.service.support.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * What the scheduler holds, for people: the queue and the nodes as it sees them (operator tokens), and why one job
 * waits (also its owner's user token).
 */
@Path("/scheduler")
@Produces(MediaType.APPLICATION_JSON)
public class SchedulerResource {

    private final SchedulerLoop loop;

    private final SecurityIdentity identity;

    public SchedulerResource(SchedulerLoop loop, SecurityIdentity identity) {
        this.identity = identity;
        this.loop = loop;
    }

    public record QueuedJob(int position, String jobId, String user, int tasks, long gpuMilliPerTask,
                            double waitingS) {
    }

    /** {@code stopping}: jobs a decision stopped to make room, waiting for their JobPreempted to queue them again. */
    public record Queue(String policy, String policyVersion, int pending, int running, int stopping, List<QueuedJob> jobs) {
    }

    public record NodeView(String name, long gpuMilli, long gpuMilliAllocated, long cpuMilli, long cpuMilliAllocated,
                           long memoryMib, long memoryMibAllocated, int runningTasks) {
    }

    @GET
    @Path("/queue")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    public CompletionStage<Queue> queue() {
        Instant now = Instant.now();
        return loop.query(s -> {
            var jobs = s.pendingJobs();
            List<QueuedJob> view = new java.util.ArrayList<>(jobs.size());
            for (int i = 0; i < jobs.size(); i++) {
                var j = jobs.get(i);
                view.add(new QueuedJob(i + 1, j.jobId(), j.user(), j.tasks(), j.perTask().gpuMilli(),
                        Duration.between(j.submittedAt(), now).toMillis() / 1000.0));
            }
            return new Queue(s.policyName(), s.policyVersion(), s.pendingCount(), s.runningCount(), s.stoppingCount(),
                    view);
        });
    }

    /**
     * Why one job waits ({@link PendingExplanation}): its queue position, the reason code of
     * {@code gantry_scheduler_pending_jobs} and the reason in words with the amounts behind it; 404 when the job is
     * not pending here (unknown, placed, or ended). The studio shows it beside a pending run.
     */
    @GET
    @Path("/queue/{jobId: .+}")
    @RolesAllowed({Roles.USER, Roles.OPERATOR, Roles.ADMIN})
    public CompletionStage<Response> pending(@PathParam("jobId") String jobId) {
        // A user's token sees only that user's jobs; another's pending job answers 404 like an unknown one.
        String caller = identity.getPrincipal().getName();
        boolean readsAll = Roles.readsAll(identity);
        return loop.query(s -> readsAll || s.pendingJobs().stream()
                        .anyMatch(j -> j.jobId().equals(jobId) && caller.equals(j.user()))
                        ? PendingExplanation.of(s, jobId) : java.util.Optional.<PendingExplanation>empty())
                .thenApply(e -> e.map(x -> Response.ok(x).build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND).type(MediaType.APPLICATION_JSON)
                        .entity(Map.of("reason", "no pending job with this id")).build()));
    }

    @GET
    @Path("/nodes")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    public CompletionStage<List<NodeView>> nodes() {
        return loop.query(s -> s.nodes().stream().map(n -> new NodeView(n.name(), n.capacity().gpuMilli(),
                n.allocated().gpuMilli(), n.capacity().cpuMilli(), n.allocated().cpuMilli(), n.capacity().memoryMib(),
                n.allocated().memoryMib(), n.runningTasks())).toList());
    }
}
