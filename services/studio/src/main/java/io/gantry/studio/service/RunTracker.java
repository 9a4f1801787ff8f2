package io.gantry.studio.service;

import io.gantry.events.JobFailed;
import io.gantry.events.JobProgress;
import io.gantry.events.JobRejected;
import io.gantry.events.JobResult;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.studio.mapping.RunStates;
import io.gantry.studio.mapping.RunViews;
import io.gantry.studio.persistence.ProgressPoint;
import io.gantry.studio.persistence.Run;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Keeps each studio run's state, progress and result as the lifecycle and tuned topics tell them, and hands every
 * change to the run's live listeners (the SSE streams). Events of jobs the studio did not submit are ignored. A
 * redelivered progress event is recognised by its event id; once a run has ended its state does not change again.
 * One lock orders storing and telling, so a listener that subscribed after reading the history misses nothing.
 */
@ApplicationScoped
public class RunTracker {

    /** One change of a run as its event stream sends it: {@code kind} progress, state, tuning or result. */
    public record Update(String kind, Object data) {
    }

    private final Map<String, List<Consumer<Update>>> listeners = new ConcurrentHashMap<>();

    /** Stores what {@code event} says of its run (nothing when the job is not a studio run) and tells its listeners. */
    public synchronized void apply(LifecycleEvent event) {
        // Most events are other submitters' jobs: no transaction for those (a database read per event was
        // the studio's main cost under load).
        if (!RunSpecs.mayBeRun(event.jobId())) {
            return;
        }
        List<Update> updates = QuarkusTransaction.requiringNew().call(() -> store(event));
        updates.forEach(u -> tell(event.jobId(), u));
    }

    /** Keeps the tuner's changes with their reasons and the hyper-parameters the run will train with. */
    public synchronized void tuned(JobTuned event) {
        if (!RunSpecs.mayBeRun(event.jobId())) {
            return;
        }
        List<Update> updates = QuarkusTransaction.requiringNew().call(() -> {
            Run r = Run.findById(event.jobId());
            if (r == null) {
                return List.<Update>of();
            }
            r.tuningJson = RunViews.json(event.changes());
            if (event.training() != null && event.training().epochs() != null) {
                r.epochs = event.training().epochs();
            }
            List<Update> out = new ArrayList<>(List.of(new Update("tuning", event.changes())));
            if (r.state.equals(RunStates.SUBMITTED)) {
                r.state = RunStates.TUNED;
                out.add(new Update("state", new RunViews.StateView(r.state, event.summary())));
            }
            r.updatedAt = Instant.now();
            return out;
        });
        updates.forEach(u -> tell(event.jobId(), u));
    }

    /** Tells {@code jobId}'s listeners of a change made outside an event (a cancel request, a failed publish). */
    public synchronized void told(String jobId, Update update) {
        tell(jobId, update);
    }

    /**
     * Hands {@code history} (read under the lock) to {@code listener}, then every later change of {@code jobId}, until
     * the returned handle is run.
     */
    public synchronized Runnable subscribe(String jobId, Supplier<List<Update>> history, Consumer<Update> listener) {
        QuarkusTransaction.requiringNew().call(history::get).forEach(listener);
        List<Consumer<Update>> of = listeners.computeIfAbsent(jobId, k -> new CopyOnWriteArrayList<>());
        of.add(listener);
        return () -> of.remove(listener);
    }

    private void tell(String jobId, Update update) {
        List<Consumer<Update>> of = listeners.get(jobId);
        if (of != null) {
            of.forEach(l -> l.accept(update));
        }
    }

    private static List<Update> store(LifecycleEvent event) {
        Run r = Run.findById(event.jobId());
        if (r == null) {
            return List.of();
        }
        List<Update> out = new ArrayList<>();
        if (event instanceof JobProgress p) {
            if (ProgressPoint.seen(p.eventId())) {
                return List.of();
            }
            ProgressPoint point = RunViews.point(p);
            point.persist();
            r.epoch = p.epoch() != null ? p.epoch() : r.epoch;
            r.lastAccuracy = point.validationAccuracy != null ? point.validationAccuracy : r.lastAccuracy;
            out.add(new Update("progress", RunViews.view(point)));
        } else if (event instanceof JobStarted s) {
            r.node = String.join(",", s.nodes());
            r.startedAt = r.startedAt == null ? s.occurredAt() : r.startedAt;
        } else if (event instanceof JobResult res) {
            RunViews.ResultView view = RunViews.result(res);
            r.resultJson = RunViews.json(view);
            out.add(new Update("result", view));
        }
        String next = RunStates.after(event);
        if (next != null && !RunStates.ended(r.state) && !next.equals(r.state)) {
            r.state = next;
            r.failureReason = reason(event);
            out.add(new Update("state", new RunViews.StateView(r.state, r.failureReason)));
        }
        r.updatedAt = Instant.now();
        return out;
    }

    private static String reason(LifecycleEvent event) {
        if (event instanceof JobFailed f) {
            return f.reason();
        }
        if (event instanceof JobRejected j) {
            return (j.field() == null ? "" : j.field() + ": ") + j.reason();
        }
        return null;
    }
}
