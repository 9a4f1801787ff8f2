package io.gantry.studio.messaging;

import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobSubmitted;
import io.gantry.service.support.EventIntake;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/** What the studio publishes: runs ({@code gantry.jobs.submitted}) and cancel requests ({@code gantry.jobs.cancellations}). */
@ApplicationScoped
public class StudioOutbox {

    static final String SUBMISSIONS = "submissions";
    static final String CANCELLATIONS = "cancellations";

    private final EventIntake intake;
    private final Emitter<String> submissions;
    private final Emitter<String> cancellations;

    public StudioOutbox(EventIntake intake, @Channel(SUBMISSIONS) Emitter<String> submissions,
                        @Channel(CANCELLATIONS) Emitter<String> cancellations) {
        this.intake = intake;
        this.submissions = submissions;
        this.cancellations = cancellations;
    }

    /** Completes once Kafka has the submission, or fails with the reason it could not be written. */
    public CompletionStage<Void> submit(JobSubmitted job) {
        return send(SUBMISSIONS, submissions, job);
    }

    public CompletionStage<Void> cancel(JobCancelRequested request) {
        return send(CANCELLATIONS, cancellations, request);
    }

    private CompletionStage<Void> send(String channel, Emitter<String> emitter, GantryEvent event) {
        return intake.publish(channel, emitter, event);
    }
}
