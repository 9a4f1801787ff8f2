package io.gantry.tuner.messaging;

import io.gantry.events.JobSubmitted;
import io.gantry.service.support.EventIntake;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/**
 * Publishes a job submitted through {@code POST /jobs} on {@code gantry.jobs.submitted}, keyed by its job id as every
 * producer of that topic does; the tuner's own consumer then takes it like any other submission.
 */
@ApplicationScoped
public class SubmissionPublisher {

    static final String OUT = "submissions";

    private final EventIntake intake;
    private final Emitter<String> submissions;

    public SubmissionPublisher(EventIntake intake, @Channel(OUT) Emitter<String> submissions) {
        this.intake = intake;
        this.submissions = submissions;
    }

    /** Completes once Kafka has the submission, or fails with the reason it could not be written. */
    public CompletionStage<Void> publish(JobSubmitted job) {
        return intake.publish(OUT, submissions, job);
    }
}
