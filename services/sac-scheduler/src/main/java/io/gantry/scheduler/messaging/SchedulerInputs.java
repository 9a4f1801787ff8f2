package io.gantry.scheduler.messaging;

import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobFailed;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.UserPriority;
import io.gantry.scheduler.service.LiveEngine;
import io.gantry.scheduler.service.OnlineLearner;
import io.gantry.scheduler.service.PendingCancellation;
import io.gantry.scheduler.service.SchedulerLoop;
import io.gantry.service.support.EventIntake;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The scheduler's four inputs, and owners' cancel requests. Each input is acked once the scheduler's state has taken
 * it, but the next record is read before that ({@link SchedulerLoop#saturated}), so that one round serves a burst;
 * acks may then come out of order, which the throttled commit strategy allows for. A bad event, or one whose
 * handling throws, goes to {@code gantry.dlq.sac-scheduler} with its reason ({@link EventIntake#handle}). New jobs and
 * lifecycle events are also shown to the online learner. The outputs are {@link SchedulerOutputs}'.
 */
@ApplicationScoped
public class SchedulerInputs {

    @Inject
    EventIntake intake;
    @Inject
    SchedulerLoop loop;
    @Inject
    OnlineLearner learner;
    @Inject
    SchedulerOutputs outputs;

    @Incoming("tuned")
    public CompletionStage<Void> onTuned(Message<String> m) {
        return take("tuned", m, JobTuned.class, (state, job) -> {
            if (job.retune()) {
                return state.retune(job); // a running job's new tuning: a new request re-sizes it (LiveEngine#retune)
            }
            boolean queued = state.enqueue(job);
            if (queued) {
                learner.jobTuned(job);
            }
            return queued;
        });
    }

    @Incoming("priorities")
    public CompletionStage<Void> onPriority(Message<String> m) {
        return take("priorities", m, UserPriority.class, LiveEngine::updatePriority);
    }

    @Incoming("metrics")
    public CompletionStage<Void> onNodeMetrics(Message<String> m) {
        return take("metrics", m, NodeMetrics.class, LiveEngine::updateNode);
    }

    @Incoming("lifecycle")
    public CompletionStage<Void> onLifecycle(Message<String> m) {
        return take("lifecycle", m, LifecycleEvent.class, (state, e) -> {
            learner.lifecycle(e);
            return state.onLifecycle(e);
        });
    }

    /**
     * A cancel request for a job still queued here: the job leaves the queue and ends with {@code JobFailed}
     * "cancelled" (the request is acked once that is written). A job already placed is the dispatcher's to stop.
     */
    @Incoming("cancellations")
    public CompletionStage<Void> onCancel(Message<String> m) {
        return intake.handle("cancellations", m, () -> {
            JobCancelRequested request = intake.take("cancellations", m, JobCancelRequested.class);
            if (request == null) {
                return m.ack();
            }
            AtomicReference<JobFailed> ended = new AtomicReference<>();
            return loop.apply(state -> {
                ended.set(PendingCancellation.of(state, request, Instant.now()).orElse(null));
                return ended.get() != null;
            }).thenCompose(x -> {
                if (ended.get() == null) {
                    return m.ack();
                }
                outputs.ended(ended.get(), m);
                return CompletableFuture.completedFuture(null);
            });
        });
    }

    private <T extends GantryEvent> CompletionStage<Void> take(String channel, Message<String> m, Class<T> type,
                                                              BiPredicate<LiveEngine, T> change) {
        return intake.handle(channel, m, () -> {
            T event = intake.take(channel, m, type);
            if (event == null) {
                return m.ack();
            }
            // Acked (or dead-lettered) once applied; the next record is taken at once unless the loop is saturated.
            CompletionStage<Void> applied = intake.handle(channel, m,
                    () -> loop.apply(state -> change.test(state, event)).thenCompose(x -> m.ack()));
            return loop.saturated() ? applied : CompletableFuture.completedFuture(null);
        });
    }
}
