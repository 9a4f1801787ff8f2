package io.gantry.priority.messaging;

import io.gantry.events.InvalidEventException;
import io.gantry.events.LifecycleEvent;
import io.gantry.priority.service.PriorityBook;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/** Publishes user priorities on the compacted {@code gantry.users.priority}: at start-up and for each new user. */
@ApplicationScoped
public class PriorityPublisher {

    static final String IN = "lifecycle";
    static final String OUT = "priorities";

    private final EventIntake intake;
    private final PriorityBook book;
    private final Emitter<String> priorities;

    public PriorityPublisher(EventIntake intake, PriorityBook book,
                             @Channel(OUT) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                             Emitter<String> priorities) {
        this.intake = intake;
        this.book = book;
        this.priorities = priorities;
    }

    void publishConfigured(@Observes StartupEvent ev) {
        book.configuredUsers().forEach(p -> {
            priorities.send(Outbound.message(p));
            intake.produced(OUT);
        });
    }

    @Incoming(IN)
    public CompletionStage<Void> onLifecycle(Message<String> message) {
        LifecycleEvent event;
        try {
            event = intake.take(IN, message, LifecycleEvent.class);
        } catch (InvalidEventException e) {
            return message.nack(e);
        }
        if (event == null || event.user() == null || event.user().isBlank()) {
            return message.ack();
        }
        var update = book.observe(event.user());
        if (update.isEmpty()) {
            return message.ack();
        }
        priorities.send(Outbound.causedBy(message, update.get()));
        intake.produced(OUT);
        return CompletableFuture.completedFuture(null);
    }
}
