package io.gantry.priority.messaging;

import io.gantry.priority.service.AccountingStore;
import io.gantry.service.support.EventIntake;
import io.gantry.priority.service.LedgerChange;
import io.gantry.priority.service.PriorityBook;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Applies taken events to the ledger on one thread, as many as are waiting (up to {@link #MAX_BATCH}) in one
 * transaction, and acknowledges each event's message only after that transaction committed: a crash before the
 * commit redelivers the events, and the database's record of processed event ids makes the redelivery change
 * nothing. When a batch fails, its events are applied again one per transaction, so only an event that fails by
 * itself is nacked (and dead-lettered by its channel's failure strategy) and its neighbours are not.
 */
@ApplicationScoped
public class LedgerWriter {

    private static final Logger LOG = Logger.getLogger(LedgerWriter.class);
    static final int MAX_BATCH = 500;
    /** Events taken but not yet written; when full, the channels wait (their next record is not delivered). */
    private static final int CAPACITY = 5_000;
    private static final CompletionStage<Void> QUEUED = CompletableFuture.completedFuture(null);

    private record Pending(AccountingStore.Input input, String channel, Message<String> message) {
    }

    private final AccountingStore store;
    private final PriorityBook book;
    private final EventIntake intake;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread = new Thread(this::run, "ledger-writer");
    private volatile boolean running = true;
    /** Completed when the writer has taken events off a full queue; guarded by this. */
    private CompletableFuture<Void> room;

    public LedgerWriter(AccountingStore store, PriorityBook book, EventIntake intake) {
        this.store = store;
        this.book = book;
        this.intake = intake;
    }

    @PostConstruct
    void start() {
        thread.setDaemon(true);
        thread.start();
    }

    @PreDestroy
    void stop() throws InterruptedException {
        // Events still queued are not acknowledged: Kafka redelivers them to the next instance.
        running = false;
        thread.join(5_000);
    }

    /**
     * Queues {@code input}; {@code message} is acked once it is committed, or dead-lettered on {@code channel} if it
     * cannot be applied. The returned stage completes once the event is queued, at once unless the queue is full.
     */
    public CompletionStage<Void> write(AccountingStore.Input input, String channel, Message<String> message) {
        return offer(new Pending(input, channel, message));
    }

    private CompletionStage<Void> offer(Pending p) {
        if (queue.offer(p)) {
            return QUEUED;
        }
        return roomFreed().thenCompose(x -> offer(p));
    }

    private synchronized CompletableFuture<Void> roomFreed() {
        if (room == null) {
            room = new CompletableFuture<>();
        }
        CompletableFuture<Void> r = room;
        if (queue.remainingCapacity() > 0) {
            // The writer drained the queue between the failed offer and now: try again at once.
            room = null;
            r.complete(null);
        }
        return r;
    }

    private void freeRoom() {
        CompletableFuture<Void> r;
        synchronized (this) {
            r = room;
            room = null;
        }
        if (r != null) {
            r.complete(null);
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                freeRoom();
                writeBatch(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // writeBatch settles every message itself; this is a bug, and the writer must survive it.
                LOG.error("the ledger writer failed", e);
            } finally {
                batch.clear();
            }
        }
    }

    private void writeBatch(List<Pending> batch) {
        List<Optional<LedgerChange>> changes;
        try {
            changes = store.applyAll(batch.stream().map(Pending::input).toList());
        } catch (RuntimeException e) {
            LOG.warnf("a batch of %d events failed (%s); applying them one by one", batch.size(), e.toString());
            batch.forEach(this::writeAlone);
            return;
        }
        try {
            // The book reads each user it has not seen yet from the database: one transaction for those reads.
            QuarkusTransaction.requiringNew().run(() -> changes.forEach(c -> c.ifPresent(book::applied)));
        } finally {
            // Committed: acknowledged even if the in-memory book failed (it is rebuilt from the database on restart).
            batch.forEach(p -> p.message().ack());
        }
    }

    private void writeAlone(Pending p) {
        Optional<LedgerChange> change;
        try {
            change = store.apply(p.input().event(), p.input().user());
        } catch (RuntimeException e) {
            intake.deadLetter(p.channel(), p.message(), e);
            return;
        }
        change.ifPresent(book::applied);
        p.message().ack();
    }
}
