package io.gantry.kafka;

import io.gantry.events.KafkaClientAuth;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A plain Kafka client for tests: send raw records as any producer would, and wait for records on a topic
 * (read from the beginning, outside every service's consumer group).
 */
public final class TopicProbe implements AutoCloseable {

    private final String bootstrap;
    /** The login of every client of this probe (plaintext: none). */
    private final Map<String, Object> auth;
    private final KafkaProducer<String, String> producer;

    public TopicProbe(String bootstrap) {
        this(bootstrap, KafkaClientAuth.PLAINTEXT);
    }

    /** A probe whose producer and consumers log in with {@code auth} (a secured broker: BrokerSecurity). */
    public TopicProbe(String bootstrap, KafkaClientAuth auth) {
        this.bootstrap = bootstrap;
        this.auth = auth.clientConfig();
        Map<String, Object> p = new HashMap<>(this.auth);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        this.producer = new KafkaProducer<>(p);
    }

    public void send(String topic, String key, String value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    /**
     * One record to {@code topic} from a producer of its own that logs in with {@code auth} and waits at most
     * {@code maxBlock} for metadata: how a test tries a login or an ACL. A refusal is thrown as Kafka's own exception
     * (a {@code TimeoutException}, {@code SaslAuthenticationException}, {@code TopicAuthorizationException}, ...), not
     * wrapped in the future's {@code ExecutionException}.
     */
    public static void sendOnce(String bootstrap, Map<String, Object> auth, Duration maxBlock, String topic, String key)
            throws Exception {
        Map<String, Object> p = new HashMap<>(auth);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) maxBlock.toMillis());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>(topic, key, "{}")).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** A record as a test sees it: key, value and headers as strings. */
    public record Seen(String topic, String key, String value, Map<String, String> headers) {
    }

    /**
     * Waits until {@code count} records matching {@code filter} are on {@code topic}, and returns them; fails
     * with the records seen so far after {@code timeout}.
     */
    public List<Seen> await(String topic, int count, Duration timeout, Predicate<Seen> filter) {
        Map<String, Object> c = new HashMap<>(auth);
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "probe-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<Seen> matched = new ArrayList<>();
        List<Seen> all = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (matched.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    Seen s = seen(r);
                    all.add(s);
                    if (filter.test(s)) {
                        matched.add(s);
                    }
                }
            }
        }
        if (matched.size() < count) {
            throw new AssertionError("expected " + count + " matching records on " + topic + " within " + timeout
                    + ", matched " + matched.size() + "; all seen: " + all);
        }
        return matched;
    }

    /** Every record on {@code topic} now, from the beginning to the current end of each partition. */
    public List<Seen> readAll(String topic) {
        Map<String, Object> c = new HashMap<>(auth);
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<Seen> all = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end within 30 s");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    all.add(seen(r));
                }
            }
        }
        return all;
    }

    private static Seen seen(ConsumerRecord<String, String> r) {
        Map<String, String> headers = new HashMap<>();
        for (Header h : r.headers()) {
            headers.put(h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
        }
        return new Seen(r.topic(), r.key(), r.value(), headers);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
