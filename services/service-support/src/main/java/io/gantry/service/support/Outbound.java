package io.gantry.service.support;

import io.gantry.events.EventCodec;
import io.gantry.events.GantryEvent;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Message;

/** Turns an event into the Kafka message every Gantry producer sends: JSON value, keyed by {@link GantryEvent#key()}. */
public final class Outbound {

    private Outbound() {
    }

    public static Message<String> message(GantryEvent event) {
        return Message.of(EventCodec.encode(event))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(event.key()).build());
    }

    /**
     * The outgoing message for {@code event}, acknowledging {@code cause} only once Kafka has the new event:
     * the input's offset is committed after its consequence is safely written, so a crash in between
     * redelivers the input instead of losing the output.
     */
    public static Message<String> causedBy(Message<?> cause, GantryEvent event) {
        return message(event).withAck(cause::ack).withNack(cause::nack);
    }
}
