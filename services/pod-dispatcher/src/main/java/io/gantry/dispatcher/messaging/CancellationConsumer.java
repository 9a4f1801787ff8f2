package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.service.Dispatcher;
import io.gantry.events.JobCancelRequested;
import io.gantry.service.support.EventIntake;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code gantry.jobs.cancellations} → the cluster stops the owner's running job (a real job's runner gets SIGTERM) →
 * {@code JobFailed} "cancelled" on {@code gantry.jobs.lifecycle}. A job still queued is the scheduler's to end. Blocking:
 * stopping a runner may wait for its process.
 */
@ApplicationScoped
public class CancellationConsumer {

    static final String IN = "cancellations";

    private final EventIntake intake;
    private final Dispatcher dispatcher;

    public CancellationConsumer(EventIntake intake, Dispatcher dispatcher) {
        this.intake = intake;
        this.dispatcher = dispatcher;
    }

    @Incoming(IN)
    @Blocking
    public CompletionStage<Void> onCancel(Message<String> message) {
        return intake.consumeHandingOver(IN, message, JobCancelRequested.class, dispatcher::cancel);
    }
}
