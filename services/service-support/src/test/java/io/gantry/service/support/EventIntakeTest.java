package io.gantry.service.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.InvalidEventException;
import io.gantry.events.JobSubmitted;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/** {@link EventIntake#handle}: whatever a record's handling throws or fails with becomes that record's dead letter. */
class EventIntakeTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EventIntake intake = new EventIntake(registry);
    /** The throwable the message was nacked with; null while it is not. */
    private final AtomicReference<Throwable> nacked = new AtomicReference<>();
    private final Message<String> message = Message.of("{}").withNack(t -> {
        nacked.set(t);
        return CompletableFuture.completedFuture(null);
    });

    private double deadLettered() {
        return registry.get("gantry.events.dead.lettered").tag("channel", "in").counter().count();
    }

    private static void completes(CompletionStage<Void> stage) throws Exception {
        stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void anExceptionThrownByTheHandlingNacksTheRecordWithItsClassMessageAndPlace() throws Exception {
        completes(intake.handle("in", message, () -> {
            throw new NegativeArraySizeException("-2147483648");
        }));
        String reason = nacked.get().getMessage();
        assertTrue(reason.startsWith("handling failed: NegativeArraySizeException: -2147483648 at "
                + EventIntakeTest.class.getName()), reason);
        assertInstanceOf(NegativeArraySizeException.class, nacked.get().getCause(), "the cause headers name it");
        assertEquals(1, deadLettered());
    }

    @Test
    void aStageThatFailsLaterNacksTheRecordWithTheUnwrappedException() throws Exception {
        CompletableFuture<Void> later = new CompletableFuture<>();
        CompletionStage<Void> handled = intake.handle("in", message, () -> later.thenApply(x -> x));
        assertNull(nacked.get());
        later.completeExceptionally(new IllegalStateException("the ledger is full"));
        completes(handled);
        assertTrue(nacked.get().getMessage().startsWith("handling failed: IllegalStateException: the ledger is full"),
                nacked.get().getMessage());
        assertEquals(1, deadLettered());
    }

    @Test
    void anInvalidEventIsNackedWithItsOwnFieldAndReason() throws Exception {
        completes(intake.handle("in", message, () -> {
            intake.take("in", Message.of("{\"type\":\"JobCompleted\"}"), JobSubmitted.class);
            return CompletableFuture.completedFuture(null);
        }));
        assertInstanceOf(InvalidEventException.class, nacked.get());
        assertEquals("invalid event: type: expected JobSubmitted, got JobCompleted", nacked.get().getMessage());
        assertEquals(1, deadLettered());
    }

    @Test
    void aHandledRecordIsNotNackedAndAHugeReasonIsCut() throws Exception {
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        assertSame(null, intake.handle("in", message, () -> done).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertNull(nacked.get());
        completes(intake.handle("in", message, () -> {
            throw new IllegalArgumentException("x".repeat(100_000));
        }));
        String reason = nacked.get().getMessage();
        assertTrue(reason.length() < RecordFailure.MAX_REASON_LENGTH + 40 && reason.endsWith("characters)"), reason);
        assertEquals(1, deadLettered());
    }
}
