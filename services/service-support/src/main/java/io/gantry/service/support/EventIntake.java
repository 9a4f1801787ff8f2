package io.gantry.service.support;

import io.gantry.events.EventCodec;
import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * How every service takes in an event: decode and validate it, count it, and tell a redelivery from a first
 * delivery. Every consumer runs its handling of a record inside {@link #handle}: an event that cannot be read or
 * breaks a rule ({@link InvalidEventException}, naming the field), and any other exception its handling throws or
 * fails with, is that record's failure. The record is nacked with the reason; the channel's {@code dead-letter-queue}
 * failure strategy then writes it, with that reason in the {@code dead-letter-reason} header, to the service's
 * dead-letter topic, and the consumer moves on to the next record. A consumer never dies of a record, and never reads
 * the same bad record again after a restart.
 */
@ApplicationScoped
public class EventIntake {

    private static final Logger LOG = Logger.getLogger(EventIntake.class);
    /** Event ids remembered for duplicate detection; redeliveries come soon after the original. */
    private static final int REMEMBERED_EVENTS = 200_000;

    private final MeterRegistry registry;
    private final Map<String, ChannelCounts> channels = new ConcurrentHashMap<>();
    private final Set<String> seenEventIds = Collections.newSetFromMap(Collections.synchronizedMap(
            new LinkedHashMap<>(1024, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > REMEMBERED_EVENTS;
                }
            }));
    private final AtomicReference<Instant> lastEventAt = new AtomicReference<>();

    public EventIntake(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Runs {@code handling} of one record of {@code channel}; it acks {@code message} itself once the record is handled.
     * A {@link RuntimeException} it throws, or that the stage it returns fails with, dead-letters the record
     * ({@link #deadLetter}) instead of reaching the channel, so the next record is consumed.
     */
    public CompletionStage<Void> handle(String channel, Message<String> message, Supplier<CompletionStage<Void>> handling) {
        CompletionStage<Void> handled;
        try {
            handled = handling.get();
        } catch (RuntimeException e) {
            return deadLetter(channel, message, e);
        }
        return handled.exceptionallyCompose(e -> deadLetter(channel, message, unwrap(e)));
    }

    /**
     * Nacks {@code message} as failed by {@code cause}, which the channel's failure strategy writes to the dead-letter
     * topic with the reason; counts it and logs it. The returned stage completes once the dead letter is written.
     */
    public CompletionStage<Void> deadLetter(String channel, Message<String> message, Throwable cause) {
        ChannelCounts c = counts(channel);
        c.deadLettered.increment();
        c.deadLetteredCount.incrementAndGet();
        RuntimeException reason = RecordFailure.reasonFor(cause);
        if (cause instanceof InvalidEventException) {
            LOG.warnf("dead-lettering an event on %s: %s", channel, reason.getMessage());
        } else {
            LOG.errorf(cause, "dead-lettering a record on %s whose handling failed: %s", channel, reason.getMessage());
        }
        return message.nack(reason);
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * The event in {@code message}, or null when it is a redelivery of an event already taken (the message is
     * then acked and must be ignored). Throws {@link InvalidEventException} for a bad event; run inside {@link #handle},
     * that dead-letters the record.
     */
    public <T extends GantryEvent> T take(String channel, Message<String> message, Class<T> type) {
        ChannelCounts c = counts(channel);
        lastEventAt.set(Instant.now());
        T event = EventCodec.decode(message.getPayload(), type);
        c.consumed.increment();
        c.consumedCount.incrementAndGet();
        if (!seenEventIds.add(event.eventId())) {
            c.duplicates.increment();
            c.duplicateCount.incrementAndGet();
            return null;
        }
        return event;
    }

    /**
     * The usual whole handling of a record, run inside {@link #handle}: take the event ({@link #take}), give it to
     * {@code apply} unless it is a redelivery, then ack. For a consumer that is done with the record once
     * {@code apply} returns.
     */
    public <T extends GantryEvent> CompletionStage<Void> consume(String channel, Message<String> message, Class<T> type,
                                                                 Consumer<T> apply) {
        return consumeHandingOver(channel, message, type, (event, m) -> {
            apply.accept(event);
            return false;
        });
    }

    /**
     * As {@link #consume}, for a handler that may answer the record later: when {@code handOver} returns true it has
     * taken {@code message} and acks it itself (once what the event causes is written); else it is acked here.
     */
    public <T extends GantryEvent> CompletionStage<Void> consumeHandingOver(String channel, Message<String> message,
                                                                            Class<T> type,
                                                                            BiPredicate<T, Message<String>> handOver) {
        return handle(channel, message, () -> {
            T event = take(channel, message, type);
            if (event == null || !handOver.test(event, message)) {
                return message.ack();
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    /** Hands {@code message} to the emitter of outgoing {@code channel} and counts it as produced there. */
    public void send(String channel, Emitter<String> emitter, Message<String> message) {
        emitter.send(message);
        produced(channel);
    }

    /**
     * Sends {@code event} (keyed as {@link Outbound#message}) on outgoing {@code channel}; the stage completes once Kafka
     * has it, or fails with the reason it could not be written. For a REST call that answers only after the write.
     */
    public CompletionStage<Void> publish(String channel, Emitter<String> emitter, GantryEvent event) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        Message<String> m = Outbound.message(event).withAck(() -> {
            written.complete(null);
            return CompletableFuture.completedFuture(null);
        }).withNack(t -> {
            written.completeExceptionally(t);
            return CompletableFuture.completedFuture(null);
        });
        send(channel, emitter, m);
        return written;
    }

    /** Records that an event was handed to an outgoing channel. */
    private void produced(String channel) {
        ChannelCounts c = counts(channel);
        c.produced.increment();
        c.producedCount.incrementAndGet();
    }

    /** Totals per channel, for the admin status. */
    public Map<String, Map<String, Long>> totals() {
        Map<String, Map<String, Long>> out = new java.util.TreeMap<>();
        channels.forEach((name, c) -> out.put(name, Map.of(
                "consumed", c.consumedCount.get(), "produced", c.producedCount.get(),
                "deadLettered", c.deadLetteredCount.get(), "duplicates", c.duplicateCount.get())));
        return out;
    }

    public Instant lastEventAt() {
        return lastEventAt.get();
    }

    private ChannelCounts counts(String channel) {
        return channels.computeIfAbsent(channel, ch -> new ChannelCounts(registry, ch));
    }

    /** Micrometer counters (for Prometheus) and plain totals (for the admin status) of one channel. */
    private static final class ChannelCounts {
        final Counter consumed;
        final Counter produced;
        final Counter deadLettered;
        final Counter duplicates;
        final AtomicLong consumedCount = new AtomicLong();
        final AtomicLong producedCount = new AtomicLong();
        final AtomicLong deadLetteredCount = new AtomicLong();
        final AtomicLong duplicateCount = new AtomicLong();

        ChannelCounts(MeterRegistry r, String channel) {
            consumed = Counter.builder("gantry.events.consumed").description("Valid events taken from a channel")
                    .tag("channel", channel).register(r);
            produced = Counter.builder("gantry.events.produced").description("Events handed to a channel")
                    .tag("channel", channel).register(r);
            deadLettered = Counter.builder("gantry.events.dead.lettered")
                    .description("Records that could not be read, validated or handled, sent to the dead-letter topic")
                    .tag("channel", channel).register(r);
            duplicates = Counter.builder("gantry.events.duplicates")
                    .description("Redelivered events recognised by their event id and ignored")
                    .tag("channel", channel).register(r);
        }
    }
}
