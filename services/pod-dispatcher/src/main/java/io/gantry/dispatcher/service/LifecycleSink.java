package io.gantry.dispatcher.service;

import io.gantry.events.LifecycleEvent;
import org.eclipse.microprofile.reactive.messaging.Message;

/** Where the dispatcher announces what happened to a job; the messaging layer writes it to the lifecycle topic. */
public interface LifecycleSink {

    /** Announces {@code event}; {@code cause}, when not null, is acknowledged only once the event is written. */
    void announce(LifecycleEvent event, Message<?> cause);
}
