package io.gantry.scheduler.messaging;

import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobRejected;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.PolicyUpdated;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.UserPriority;
import io.gantry.scheduler.service.OnlineLearner;
import io.gantry.scheduler.service.SchedulerLoop;
import io.gantry.scheduler.service.SchedulerState;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.CompletionStage;
import java.util.function.BiPredicate;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * The scheduler's four inputs and three outputs. Each input is acked once the scheduler's state has taken it;
 * a bad event goes to {@code gantry.dlq.sac-scheduler} with its reason. New jobs and lifecycle events are also
 * shown to the online learner, and its promotions go out as {@code PolicyUpdated} on {@code gantry.policy.updates}.
 */
@ApplicationScoped
public class SchedulerInputs implements SchedulerLoop.Sink, OnlineLearner.Publisher {

    private final EventIntake intake;
    private final SchedulerLoop loop;
    private final Emitter<String> decisions;
    private final Emitter<String> rejections;
    private final Emitter<String> policyUpdates;
    private final OnlineLearner learner;

    public SchedulerInputs(EventIntake intake, SchedulerLoop loop, OnlineLearner learner,
                           @Channel("decisions") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                           Emitter<String> decisions,
                           @Channel("rejections") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                           Emitter<String> rejections,
                           @Channel("policy-updates") Emitter<String> policyUpdates) {
        this.intake = intake;
        this.loop = loop;
        this.learner = learner;
        this.decisions = decisions;
        this.rejections = rejections;
        this.policyUpdates = policyUpdates;
    }

    void connect(@Observes StartupEvent ev) {
        loop.connect(this);
        learner.connect(this);
    }

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
        return take("priorities", m, UserPriority.class, SchedulerState::updatePriority);
    }

    @Incoming("metrics")
    public CompletionStage<Void> onNodeMetrics(Message<String> m) {
        return take("metrics", m, NodeMetrics.class, SchedulerState::updateNode);
    }

    @Incoming("lifecycle")
    public CompletionStage<Void> onLifecycle(Message<String> m) {
        return take("lifecycle", m, LifecycleEvent.class, (state, e) -> {
            learner.lifecycle(e);
            return state.onLifecycle(e);
        });
    }

    private <T extends GantryEvent> CompletionStage<Void> take(String channel, Message<String> m, Class<T> type,
                                                              BiPredicate<SchedulerState, T> change) {
        T event;
        try {
            event = intake.take(channel, m, type);
        } catch (InvalidEventException e) {
            return m.nack(e);
        }
        if (event == null) {
            return m.ack();
        }
        // A change the state refuses (e.g. a job id already taken) is this event's failure: dead-lettered, never a
        // stopped channel.
        return loop.apply(state -> change.test(state, event))
                .handle((x, failure) -> failure == null ? m.ack() : m.nack(rootCause(failure)))
                .thenCompose(done -> done);
    }

    private static Throwable rootCause(Throwable t) {
        return t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    @Override
    public void decided(SchedulingDecision decision) {
        intake.send("decisions", decisions, Outbound.message(decision));
    }

    @Override
    public void rejected(JobRejected rejection) {
        intake.send("rejections", rejections, Outbound.message(rejection));
    }

    @Override
    public void policyUpdated(PolicyUpdated event) {
        intake.send("policy-updates", policyUpdates, Outbound.message(event));
    }
}
