package io.gantry.scheduler.messaging;

import io.gantry.events.GantryEvent;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.UserPriority;
import io.gantry.scheduler.service.LiveEngine;
import io.gantry.scheduler.service.OnlineLearner;
import io.gantry.scheduler.service.SchedulerLoop;
import io.gantry.service.support.EventIntake;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import java.util.function.BiPredicate;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The scheduler's four inputs. Each input is acked once the scheduler's state has taken it; a bad event, or one whose
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

    @Incoming("tuned")
    public CompletionStage<Void> onTuned(Message<String> m) {
        return take("tuned", m, JobTuned.class, (state, job) -> {
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

    private <T extends GantryEvent> CompletionStage<Void> take(String channel, Message<String> m, Class<T> type,
                                                              BiPredicate<LiveEngine, T> change) {
        return intake.handle(channel, m, () -> {
            T event = intake.take(channel, m, type);
            if (event == null) {
                return m.ack();
            }
            return loop.apply(state -> change.test(state, event)).thenCompose(x -> m.ack());
        });
    }
}
