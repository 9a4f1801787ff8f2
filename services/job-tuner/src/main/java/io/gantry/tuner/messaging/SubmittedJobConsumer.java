package io.gantry.tuner.messaging;

import io.gantry.events.InvalidEventException;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.gantry.tuner.service.JobTuner;
import io.gantry.tuner.service.LiveRetunes;
import io.gantry.tuner.service.TuningMeters;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * {@code gantry.jobs.submitted} → tuner → {@code gantry.jobs.tuned}, or a {@code JobRejected} on
 * {@code gantry.jobs.lifecycle} for a job that can never run. A submission that breaks the event contract is
 * dead-lettered as by every service, and — when it still names its job — also rejected, so its submitter learns the
 * field and the reason from the lifecycle topic they already watch, not from an operators' dead-letter topic. A
 * submission whose handling fails in any other way is dead-lettered with the exception ({@link EventIntake#handle}).
 */
@ApplicationScoped
public class SubmittedJobConsumer {

    static final String IN = "submitted";
    static final String REJECTED = "rejected";

    private final EventIntake intake;
    private final JobTuner tuner;
    private final TuningMeters meters;
    private final TunedPublisher tuned;
    private final LiveRetunes retunes;
    private final Emitter<String> rejected;

    public SubmittedJobConsumer(EventIntake intake, JobTuner tuner, TuningMeters meters, TunedPublisher tuned,
                                LiveRetunes retunes,
                                @Channel(REJECTED) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                                Emitter<String> rejected) {
        this.intake = intake;
        this.tuner = tuner;
        this.meters = meters;
        this.tuned = tuned;
        this.retunes = retunes;
        this.rejected = rejected;
    }

    @Incoming(IN)
    public CompletionStage<Void> onSubmitted(Message<String> message) {
        return intake.handle(IN, message, () -> tune(message));
    }

    private CompletionStage<Void> tune(Message<String> message) {
        JobSubmitted job;
        try {
            job = intake.take(IN, message, JobSubmitted.class);
        } catch (InvalidEventException e) {
            Optional<JobRejected> rejection = tuner.rejectionOfInvalid(message.getPayload(), e);
            if (rejection.isEmpty()) {
                throw e;
            }
            meters.recordInvalid(rejection.get().field());
            // The dead letter (the nack) follows once Kafka has the rejection, as Outbound.causedBy orders an ack.
            intake.send(REJECTED, rejected, Outbound.message(rejection.get())
                    .withAck(() -> intake.deadLetter(IN, message, e)).withNack(t -> intake.deadLetter(IN, message, e)));
            return CompletableFuture.completedFuture(null);
        }
        if (job == null) {
            return message.ack();
        }
        JobTuner.Decision d = tuner.decide(job);
        meters.record(d);
        if (d instanceof JobTuner.Rejected r) {
            intake.send(REJECTED, rejected, Outbound.causedBy(message, r.event()));
        } else {
            JobTuned event = ((JobTuner.Tuned) d).event();
            tuner.history().tuned(event);
            retunes.tuned(event, job.tuningOrDefault());
            tuned.send(message, event);
        }
        return CompletableFuture.completedFuture(null);
    }
}
