package io.gantry.tuner.messaging;

import io.gantry.events.JobTuned;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Writes {@code JobTuned} events on {@code gantry.jobs.tuned}, keyed by job id: the tuning of a submission, and the
 * re-tunes of running jobs (revisions above 0), from the rule or from {@code POST /jobs/{id}/retune}. One owner of the
 * channel's emitter, so every writer of the topic goes through the same buffer.
 */
@ApplicationScoped
public class TunedPublisher {

    static final String OUT = "tuned";

    private final EventIntake intake;
    private final Emitter<String> tuned;

    public TunedPublisher(EventIntake intake,
                          @Channel(OUT) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                          Emitter<String> tuned) {
        this.intake = intake;
        this.tuned = tuned;
    }

    /** Sends {@code event}; {@code cause} is acknowledged once Kafka has it (see {@link Outbound#causedBy}). */
    public void send(Message<?> cause, JobTuned event) {
        intake.send(OUT, tuned, Outbound.causedBy(cause, event));
    }

    /** Completes once Kafka has the event, or fails with the reason it could not be written. */
    public CompletionStage<Void> publish(JobTuned event) {
        return intake.publish(OUT, tuned, event);
    }
}
