package io.gantry.priority.messaging;

import io.gantry.events.GantryEvent;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.UserPriority;
import io.gantry.priority.service.AccountingStore;
import io.gantry.priority.service.PriorityBook;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
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
 * enough for an order that changes with hours of usage. Events are decoded here, on the consumer's thread, and
 * written by the {@link LedgerWriter} in batches; an input is acked once its ledger change is committed: priorities
 * are derived from the database, so one not yet published is not lost.
 */
@ApplicationScoped
public class PriorityPublisher {

    static final String IN = "lifecycle";
    static final String SUBMITTED = "submitted";
    static final String OUT = "priorities";

    private final EventIntake intake;
    private final LedgerWriter writer;
    private final PriorityBook book;
    private final Emitter<String> priorities;

    public PriorityPublisher(EventIntake intake, LedgerWriter writer, PriorityBook book,
                             @Channel(OUT) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                             Emitter<String> priorities) {
        this.intake = intake;
        this.writer = writer;
        this.book = book;
        this.priorities = priorities;
    }

    void start(@Observes StartupEvent ev) {
        book.reload();
        // Users never published yet, and those whose priority drifted (decay) while the service was down; the others
        // are still current on the compacted topic.
        publish(book.publications(Instant.now()));
    }

    // Not before start-up has finished: until then the outgoing channel is not connected yet, and sending on it failed
    // with "Unable to connect an emitter" in every start's log.
    @Scheduled(every = "${gantry.priority.recompute-interval:1s}", delayed = "1s",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void recompute() {
        publish(book.publications(Instant.now()));
    }

    @Incoming(IN)
    public CompletionStage<Void> onLifecycle(Message<String> message) {
        return take(IN, message, LifecycleEvent.class);
    }

    @Incoming(SUBMITTED)
    public CompletionStage<Void> onSubmitted(Message<String> message) {
        return take(SUBMITTED, message, JobSubmitted.class);
    }

    private <T extends GantryEvent> CompletionStage<Void> take(String channel, Message<String> message, Class<T> type) {
        return intake.handle(channel, message, () -> {
            T event = intake.take(channel, message, type);
            String user = event == null ? null
                    : event instanceof LifecycleEvent l ? l.user() : ((JobSubmitted) event).user();
            if (user == null || user.isBlank()) {
                return message.ack();
            }
            return writer.write(new AccountingStore.Input(event, user), channel, message);
        });
    }

    /** Publishes priorities not caused by an input (start-up, decay over time, an admin change). */
    public void publish(List<UserPriority> updates) {
        updates.forEach(p -> intake.send(OUT, priorities, Outbound.message(p)));
    }
}
