package io.gantry.dispatcher.messaging;

import io.gantry.events.EventCodec;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads {@code gantry.jobs.lifecycle} from the beginning to its current end, outside any consumer group, so a
 * restarted dispatcher knows which jobs, and which stints of them, were already dispatched. Unreadable records are
 * skipped: they belong to whoever wrote them, and their dead letters are that consumer's business.
 */
@ApplicationScoped
public class LifecycleHistoryReader {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final String bootstrap;

    public LifecycleHistoryReader(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /**
     * @param highestAttempts every job with any lifecycle event, with the highest attempt its events name: a start
     *        or a preemption names its stint, any other event counts as the first
     * @param stillRunning jobs whose last stint started and has not ended: their last word is {@link JobStarted}
     *        (or a non-terminal event other than {@link JobPreempted} after it)
     * @param endedJobIds jobs with a terminal event (completed, failed, rejected)
     */
    public record History(Map<String, Integer> highestAttempts, Map<String, JobStarted> stillRunning,
                          Set<String> endedJobIds) {

        /** Every job with any lifecycle event. */
        public Set<String> seenJobIds() {
            return highestAttempts.keySet();
        }

        /** Folds lifecycle events into a History; each job's events must come in their order on the topic. */
        public static final class Builder {
            private final Map<String, Integer> highestAttempts = new HashMap<>();
            private final Map<String, JobStarted> stillRunning = new LinkedHashMap<>();
            private final Set<String> ended = new HashSet<>();

            public Builder add(LifecycleEvent e) {
                int attempt = e instanceof JobStarted s ? s.attempt() : e instanceof JobPreempted p ? p.attempt() : 1;
                highestAttempts.merge(e.jobId(), attempt, Math::max);
                if (e instanceof JobStarted started) {
                    stillRunning.put(e.jobId(), started);
                } else if (e instanceof JobPreempted preempted) {
                    // Only its own stint ends: a stop reported for an earlier one leaves a later start running.
                    stillRunning.computeIfPresent(e.jobId(),
                            (id, started) -> started.attempt() <= preempted.attempt() ? null : started);
                } else if (e.terminal()) {
                    stillRunning.remove(e.jobId());
                    ended.add(e.jobId());
                }
                return this;
            }

            public History build() {
                return new History(highestAttempts, stillRunning, ended);
            }
        }
    }

    public History read() {
        Map<String, Object> c = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        History.Builder history = new History.Builder();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> parts = consumer.partitionsFor(Topics.JOBS_LIFECYCLE, READ_TIMEOUT).stream()
                    .map(p -> new TopicPartition(Topics.JOBS_LIFECYCLE, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (parts.stream().anyMatch(p -> consumer.position(p, READ_TIMEOUT) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + Topics.JOBS_LIFECYCLE + " to its end within "
                            + READ_TIMEOUT);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    LifecycleEvent e;
                    try {
                        e = EventCodec.decode(r.value(), LifecycleEvent.class);
                    } catch (InvalidEventException bad) {
                        continue;
                    }
                    history.add(e);
                }
            }
        }
        return history.build();
    }
}
