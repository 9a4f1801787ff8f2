package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.service.LifecycleSink;
import io.gantry.events.LifecycleEvent;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/** Writes lifecycle events to {@code gantry.jobs.lifecycle}, keyed by job id. */
@ApplicationScoped
public class LifecycleEmitter implements LifecycleSink {

    static final String OUT = "lifecycle";

    private final EventIntake intake;
    private final Emitter<String> lifecycle;

    public LifecycleEmitter(EventIntake intake,
                            @Channel(OUT) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                            Emitter<String> lifecycle) {
        this.intake = intake;
        this.lifecycle = lifecycle;
    }

    @Override
    public void announce(LifecycleEvent event, Message<?> cause) {
        intake.send(OUT, lifecycle, cause == null ? Outbound.message(event) : Outbound.causedBy(cause, event));
    }
}
