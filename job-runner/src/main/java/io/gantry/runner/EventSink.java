package io.gantry.runner;

import io.gantry.events.EventCodec;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Topics;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Where the runner's events go: {@code gantry.jobs.lifecycle} keyed by job id, or a list (tests, dry runs). */
interface EventSink extends AutoCloseable {

    /** Sends without waiting (progress). */
    void send(LifecycleEvent event);

    /** Sends and waits until the broker has it (the result: it must be written before the runner says it is done). */
    void sendAndWait(LifecycleEvent event) throws Exception;

    @Override
    void close();

    /** The plain Kafka client: idempotent, acks=all, so a retried send is written once. */
    static EventSink kafka(String bootstrap, KafkaClientAuth auth, String topic) {
        Properties p = new Properties();
        p.putAll(auth.clientConfig());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "job-runner");
        KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        String t = topic == null ? Topics.JOBS_LIFECYCLE : topic;
        return new EventSink() {
            @Override
            public void send(LifecycleEvent event) {
                producer.send(new ProducerRecord<>(t, event.jobId(), EventCodec.encode(event)));
            }

            @Override
            public void sendAndWait(LifecycleEvent event) throws ExecutionException, InterruptedException, TimeoutException {
                producer.send(new ProducerRecord<>(t, event.jobId(), EventCodec.encode(event))).get(120, TimeUnit.SECONDS);
            }

            @Override
            public void close() {
                producer.close(java.time.Duration.ofSeconds(30));
            }
        };
    }

    /** Keeps every event (and prints one line each to {@code log} when not null). */
    final class Collecting implements EventSink {
        final List<LifecycleEvent> events = new ArrayList<>();
        private final PrintStream log;

        Collecting(PrintStream log) {
            this.log = log;
        }

        @Override
        public synchronized void send(LifecycleEvent event) {
            events.add(event);
            if (log != null) {
                log.println(EventCodec.encode(event));
            }
        }

        @Override
        public void sendAndWait(LifecycleEvent event) {
            send(event);
        }

        @Override
        public void close() {
        }
    }
}
