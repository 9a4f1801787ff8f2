package io.gantry.priority.messaging;

import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.UserPriority;
import io.gantry.priority.service.AccountingStore;
import io.gantry.priority.service.LedgerChange;
import io.gantry.priority.service.PriorityBook;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Takes lifecycle events (usage) and submissions (who waits) into the ledger, and publishes user priorities on the
 * compacted {@code gantry.users.priority}: every user at start-up, then each user whose priority moved materially,
 * checked every recompute interval. Not after each event: under a stream of events nearly every event moves some
 * priority a little, and each publication makes the scheduler re-sort that user's queue; once a second is fresh
 * enough for an order that changes with hours of usage. An input is acked once its ledger change is committed:
 * priorities are derived from the database, so one not yet published is not lost.
 */
@ApplicationScoped
public class PriorityPublisher {

    static final String IN = "lifecycle";
    static final String SUBMITTED = "submitted";
    static final String OUT = "priorities";

    private final EventIntake intake;
    private final AccountingStore store;
    private final PriorityBook book;
    private final Emitter<String> priorities;

    public PriorityPublisher(EventIntake intake, AccountingStore store, PriorityBook book,
                             @Channel(OUT) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                             Emitter<String> priorities) {
        this.intake = intake;
        this.store = store;
        this.book = book;
        this.priorities = priorities;
    }

    void start(@Observes StartupEvent ev) {
        book.reload();
        // Users never published yet, and those whose priority drifted (decay) while the service was down; the others
        // are still current on the compacted topic.
        publish(book.publications(Instant.now()));
    }

    @Scheduled(every = "${gantry.priority.recompute-interval:1s}", delayed = "1s")
    void recompute() {
        publish(book.publications(Instant.now()));
    }

    @Incoming(IN)
    @Blocking(ordered = true)
    public CompletionStage<Void> onLifecycle(Message<String> message) {
        return take(IN, message, LifecycleEvent.class);
    }

    @Incoming(SUBMITTED)
    @Blocking(ordered = true)
    public CompletionStage<Void> onSubmitted(Message<String> message) {
        return take(SUBMITTED, message, JobSubmitted.class);
    }

    private <T extends GantryEvent> CompletionStage<Void> take(String channel, Message<String> message, Class<T> type) {
        T event;
        try {
            event = intake.take(channel, message, type);
        } catch (InvalidEventException e) {
            return message.nack(e);
        }
        String user = event == null ? null
                : event instanceof LifecycleEvent l ? l.user() : ((JobSubmitted) event).user();
        if (user == null || user.isBlank()) {
            return message.ack();
        }
        Optional<LedgerChange> change = store.apply(event, user);
        if (change.isEmpty()) {
            return message.ack(); // processed before (a redelivery after a restart): nothing changes
        }
        book.applied(change.get());
        return message.ack();
    }

    /** Publishes priorities not caused by an input (start-up, decay over time, an admin change). */
    public void publish(List<UserPriority> updates) {
        updates.forEach(p -> {
            priorities.send(Outbound.message(p));
            intake.produced(OUT);
        });
    }
}
