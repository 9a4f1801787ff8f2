package io.gantry.tuner.messaging;

import io.gantry.events.InvalidEventException;
import io.gantry.events.JobSubmitted;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.gantry.tuner.service.JobTuner;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/** {@code gantry.jobs.submitted} → tuner → {@code gantry.jobs.tuned}. */
@ApplicationScoped
public class SubmittedJobConsumer {

    static final String IN = "submitted";
    static final String OUT = "tuned";

    private final EventIntake intake;
    private final JobTuner tuner;
    private final Emitter<String> tuned;

    public SubmittedJobConsumer(EventIntake intake, JobTuner tuner,
                                @Channel(OUT) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                                Emitter<String> tuned) {
        this.intake = intake;
        this.tuner = tuner;
        this.tuned = tuned;
    }

    @Incoming(IN)
    public CompletionStage<Void> onSubmitted(Message<String> message) {
        JobSubmitted job;
        try {
            job = intake.take(IN, message, JobSubmitted.class);
        } catch (InvalidEventException e) {
            return message.nack(e);
        }
        if (job == null) {
            return message.ack();
        }
        tuned.send(Outbound.causedBy(message, tuner.tune(job)));
        intake.produced(OUT);
        return CompletableFuture.completedFuture(null);
    }
}
