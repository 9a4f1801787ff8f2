package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.service.Dispatcher;
import io.gantry.events.InvalidEventException;
import io.gantry.events.SchedulingDecision;
import io.gantry.service.support.EventIntake;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/** {@code gantry.scheduling.decisions} → the selected cluster → {@code gantry.jobs.lifecycle}. */
@ApplicationScoped
public class DecisionConsumer {

    static final String IN = "decisions";

    private final EventIntake intake;
    private final Dispatcher dispatcher;

    public DecisionConsumer(EventIntake intake, Dispatcher dispatcher) {
        this.intake = intake;
        this.dispatcher = dispatcher;
    }

    // Off the event loop: in Kubernetes mode handling one calls the API server; ordered keeps a job's events in order.
    @Blocking(ordered = true)
    @Incoming(IN)
    public CompletionStage<Void> onDecision(Message<String> message) {
        SchedulingDecision decision;
        try {
            decision = intake.take(IN, message, SchedulingDecision.class);
            if (decision != null && decision.durationS() != null
                    && !(decision.durationS() >= 0 && Double.isFinite(decision.durationS()))) {
                // The contract leaves durationS optional; a present one must be a real run time.
                throw new InvalidEventException("durationS", "must be a finite number of seconds >= 0, was "
                        + decision.durationS());
            }
        } catch (InvalidEventException e) {
            return message.nack(e);
        }
        if (decision == null || !dispatcher.dispatch(decision, message)) {
            return message.ack();
        }
        // Acked by the lifecycle emitter once the resulting event is written.
        return CompletableFuture.completedFuture(null);
    }
}
