package io.gantry.studio.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ModelGraph;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TuningChange;
import io.gantry.studio.config.StudioConfig;
import io.gantry.studio.mapping.RunStates;
import io.gantry.studio.mapping.RunViews;
import io.gantry.studio.messaging.StudioOutbox;
import io.gantry.studio.persistence.GraphVersion;
import io.gantry.studio.persistence.ProgressPoint;
import io.gantry.studio.persistence.Run;
import io.gantry.studio.persistence.StoredGraph;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * A user's runs: submitting one (stored, then published as {@code JobSubmitted}), listing and showing them with the
 * scheduler's queue position and pending reason, and asking to cancel one. Only the owner sees or cancels a run.
 */
@ApplicationScoped
public class Runs {

    private static final Logger LOG = Logger.getLogger(Runs.class);
    private static final long PUBLISH_TIMEOUT_S = 10;

    public record Submitted(String runId, String jobId, String state) {
    }

    public record Summary(String runId, Long graphId, Integer version, String dataset, String state,
                          Instant submittedAt, Integer queuePosition, String pendingReason, Integer epoch, int epochs,
                          Double lastAccuracy) {
    }

    public record Detail(String runId, Long graphId, Integer version, String dataset, String state,
                         Instant submittedAt, Integer queuePosition, String pendingReason, Integer epoch, int epochs,
                         Double lastAccuracy, TrainingSpec spec, List<RunViews.ProgressView> progress,
                         Double etaSeconds, List<TuningChange> tuning, RunViews.ResultView result, String node,
                         String failureReason, boolean cancelRequested) {
    }

    private final GraphValidation validation;
    private final StudioOutbox outbox;
    private final RunTracker tracker;
    private final RemoteReads remote;
    private final StudioConfig config;

    public Runs(GraphValidation validation, StudioOutbox outbox, RunTracker tracker, RemoteReads remote,
                StudioConfig config) {
        this.validation = validation;
        this.outbox = outbox;
        this.tracker = tracker;
        this.remote = remote;
        this.config = config;
    }

    public Submitted submit(String user, RunSpecs.Submit s) {
        if (s == null) {
            throw new BadRequest("body", "is required");
        }
        Source source = QuarkusTransaction.requiringNew().call(() -> source(user, s));
        String dataset = s.dataset() != null ? s.dataset() : source.dataset();
        validation.require(source.graph(), dataset);
        TrainingSpec spec = RunSpecs.spec(s, source.graph(), dataset);
        String jobId = RunSpecs.newJobId();
        String name = s.name() != null ? s.name() : source.name();
        JobSubmitted job = RunSpecs.submission(jobId, user, name, spec, s.tune() == null || s.tune(), config.request());
        QuarkusTransaction.requiringNew().run(() -> store(job, source));
        try {
            outbox.submit(job).toCompletableFuture().get(PUBLISH_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.errorf(e, "run %s could not be published", jobId);
            ended(jobId, RunStates.FAILED, "could not be submitted: " + e.getMessage());
            throw new IllegalStateException("the run could not be submitted to Kafka: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while submitting", e);
        }
        return new Submitted(jobId, jobId, RunStates.SUBMITTED);
    }

    public List<Summary> list(String user) {
        List<Run> runs = QuarkusTransaction.requiringNew().call(() -> Run.ofOwner(user));
        Map<String, Integer> positions = runs.stream().anyMatch(r -> !RunStates.ended(r.state))
                ? remote.queuePositions() : Map.of();
        List<Summary> out = new ArrayList<>();
        for (Run r : runs) {
            Integer position = positions.get(r.jobId);
            out.add(new Summary(r.jobId, r.graphId, r.graphVersion, r.dataset, shownState(r, position), r.submittedAt,
                    position, position == null ? null : pendingReason(r.jobId), r.epoch, r.epochs, r.lastAccuracy));
        }
        return out;
    }

    public Detail detail(String user, String runId) {
        Run r = QuarkusTransaction.requiringNew().call(() -> owned(user, runId));
        List<ProgressPoint> points = QuarkusTransaction.requiringNew().call(() -> ProgressPoint.of(runId));
        Integer position = RunStates.ended(r.state) ? null : remote.queuePositions().get(r.jobId);
        ProgressPoint last = points.isEmpty() ? null : points.get(points.size() - 1);
        return new Detail(r.jobId, r.graphId, r.graphVersion, r.dataset, shownState(r, position), r.submittedAt,
                position, position == null ? null : pendingReason(r.jobId), r.epoch, r.epochs, r.lastAccuracy,
                RunViews.read(r.specJson, TrainingSpec.class), points.stream().map(RunViews::view).toList(),
                RunViews.etaSeconds(r, last, Instant.now()), RunViews.tuning(r), RunViews.result(r), r.node,
                r.failureReason, r.cancelRequested);
    }

    /** What a new event stream sends first: every progress point, the current state, and the result if any. */
    public List<RunTracker.Update> history(String user, String runId) {
        Run r = owned(user, runId);
        List<RunTracker.Update> out = new ArrayList<>();
        ProgressPoint.of(runId).forEach(p -> out.add(new RunTracker.Update("progress", RunViews.view(p))));
        out.add(new RunTracker.Update("state", new RunViews.StateView(r.state, r.failureReason)));
        RunViews.ResultView result = RunViews.result(r);
        if (result != null) {
            out.add(new RunTracker.Update("result", result));
        }
        return out;
    }

    /** Checks that {@code runId} is the user's (404 otherwise); for the event stream before it subscribes. */
    public void requireOwned(String user, String runId) {
        QuarkusTransaction.requiringNew().call(() -> owned(user, runId));
    }

    /** Publishes the user's cancel request; the run ends when the lifecycle topic says so. */
    public void cancel(String user, String runId) {
        Run r = QuarkusTransaction.requiringNew().call(() -> owned(user, runId));
        if (RunStates.ended(r.state)) {
            throw new Conflict("run " + runId + " has already ended: " + r.state);
        }
        JobCancelRequested request = new JobCancelRequested(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(),
                runId, user, "cancelled from the studio");
        try {
            outbox.cancel(request).toCompletableFuture().get(PUBLISH_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the cancel request could not be published: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while cancelling", e);
        }
        QuarkusTransaction.requiringNew().run(() -> {
            Run run = Run.findById(runId);
            run.cancelRequested = true;
        });
        tracker.told(runId, new RunTracker.Update("state", new RunViews.StateView("CANCELLING", null)));
    }

    /** The graph a run trains: a stored version of the user's graph, or the request's inline graph. */
    private record Source(ModelGraph graph, String dataset, Long graphId, Integer version, String name) {
    }

    private static Source source(String user, RunSpecs.Submit s) {
        if (s.graphId() == null) {
            if (s.graph() == null) {
                throw new BadRequest(GraphValidation.GRAPH, "is required: give graphId (and version) or an inline graph");
            }
            return new Source(s.graph(), null, null, null, "studio run");
        }
        StoredGraph g = StoredGraph.owned(s.graphId(), user);
        if (g == null) {
            throw new NotFound("graph " + s.graphId());
        }
        int version = s.version() != null ? s.version() : GraphVersion.latest(g.id);
        GraphVersion v = GraphVersion.find(g.id, version);
        if (v == null) {
            throw new BadRequest("version", "graph " + g.id + " has no version " + version);
        }
        return new Source(RunViews.read(v.graphJson, ModelGraph.class), v.dataset, g.id, version, g.name);
    }

    private static void store(JobSubmitted job, Source source) {
        Run r = new Run();
        r.jobId = job.jobId();
        r.owner = job.user();
        r.graphId = source.graphId();
        r.graphVersion = source.version();
        r.dataset = job.training().dataset();
        r.specJson = RunViews.json(job.training());
        r.state = RunStates.SUBMITTED;
        r.submittedAt = job.occurredAt();
        r.updatedAt = job.occurredAt();
        r.epochs = job.training().epochs();
        r.persist();
    }

    private void ended(String jobId, String state, String reason) {
        QuarkusTransaction.requiringNew().run(() -> {
            Run r = Run.findById(jobId);
            r.state = state;
            r.failureReason = reason;
        });
        tracker.told(jobId, new RunTracker.Update("state", new RunViews.StateView(state, reason)));
    }

    private static Run owned(String user, String runId) {
        Run r = Run.owned(runId, user);
        if (r == null) {
            throw new NotFound("run " + runId);
        }
        return r;
    }

    private static String shownState(Run r, Integer queuePosition) {
        boolean waiting = r.state.equals(RunStates.SUBMITTED) || r.state.equals(RunStates.TUNED);
        return waiting && queuePosition != null ? RunStates.PENDING : r.state;
    }

    private String pendingReason(String jobId) {
        RemoteReads.Answer a = remote.pending(jobId);
        return a.json() == null ? null : a.json().path("reason").asText(null);
    }
}
