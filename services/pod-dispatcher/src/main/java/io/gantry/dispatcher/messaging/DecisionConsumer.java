package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.service.Dispatcher;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.gantry.events.SchedulingDecision;
import io.gantry.service.support.EventIntake;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code gantry.scheduling.decisions} → the selected cluster → {@code gantry.jobs.lifecycle}. The simulated cluster
 * binds in memory, so its decisions are handled on the consumer's event loop (but for one that may be a real job's,
 * whose training spec it may wait for); binding on Kubernetes calls the API server, so those decisions are handled on
 * a worker thread. Either way one decision at a time, in order.
 */
@ApplicationScoped
public class DecisionConsumer {

    static final String IN = "decisions";

    private final EventIntake intake;
    private final Dispatcher dispatcher;
    private final boolean bindsInMemory;

    public DecisionConsumer(EventIntake intake, Dispatcher dispatcher, ClusterBackend cluster) {
        this.intake = intake;
        this.dispatcher = dispatcher;
        this.bindsInMemory = cluster instanceof SimulatedCluster;
    }

    @Incoming(IN)
    public CompletionStage<Void> onDecision(Message<String> message) {
        if (bindsInMemory && !mayBeRealJob(message.getPayload())) {
            return handle(message);
        }
        // The channel waits for the returned stage before it delivers the next decision, which keeps them in order.
        return CompletableFuture.supplyAsync(() -> handle(message), Infrastructure.getDefaultWorkerPool())
                .thenCompose(handled -> handled);
    }

    /**
     * A decision without a duration may be a real training job's, whose spec the simulated cluster may wait for (see
     * {@link TunedSpecReader}): those are bound on a worker thread, never on the event loop. Trace jobs have one.
     */
    static boolean mayBeRealJob(String payload) {
        return payload == null || !payload.contains("\"durationS\":") || payload.contains("\"durationS\":null");
    }

    private CompletionStage<Void> handle(Message<String> message) {
        // A decision the dispatcher takes is acked by the lifecycle emitter once the resulting event is written.
        return intake.consumeHandingOver(IN, message, SchedulingDecision.class, dispatcher::dispatch);
    }
}
