package io.gantry.service.support;

import io.gantry.events.EventCodec;
import io.gantry.events.GantryEvent;
import io.gantry.events.InvalidEventException;
import io.gantry.events.KafkaClientAuth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic from its beginning to its current end, outside any consumer group: how a service that keeps
 * its state in memory rebuilds it after a restart. Records that are not valid events of the asked type are
 * skipped here; the service's channel dead-letters them when it consumes them.
 */
public final class TopicHistory {

    private TopicHistory() {
    }

    /** Every valid {@code type} event on {@code topic}, in offset order per partition. */
    public static <T extends GantryEvent> List<T> read(String bootstrap, KafkaClientAuth auth, String topic, Class<T> type,
                                                       Duration timeout) {
        List<T> out = new ArrayList<>();
        forEach(bootstrap, auth, topic, type, timeout, out::add);
        return out;
    }

    /**
     * Hands every valid {@code type} event on {@code topic} to {@code action}, in offset order per partition, without
     * keeping them: for a service that needs only a summary of a long topic.
     */
    public static <T extends GantryEvent> void forEach(String bootstrap, KafkaClientAuth auth, String topic, Class<T> type,
                                                       Duration timeout, Consumer<T> action) {
        Map<String, Object> c = new HashMap<>(auth.clientConfig());
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (parts.stream().anyMatch(p -> consumer.position(p, timeout) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + timeout);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    T event;
                    try {
                        event = EventCodec.decode(r.value(), type);
                    } catch (InvalidEventException skipped) {
                        continue; // dead-lettered by the channel that consumes it
                    }
                    action.accept(event);
                }
            }
        }
    }
}
