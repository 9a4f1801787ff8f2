package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.config.RealJobsConfig;
import io.gantry.dispatcher.simulated.TrainingSpecSource;
import io.gantry.events.EventCodec;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobTuned;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Reads {@code gantry.jobs.tuned} from its beginning, outside any consumer group, and keeps the training spec of every
 * job that has one: the simulated cluster's way to know that a decided job trains for real (a decision carries no
 * spec). It also knows up to when it has read the whole topic, so a decision that may be a real job's waits, boundedly,
 * until the reader has read everything written before the decision (its {@code JobTuned} was written before the
 * scheduler decided). Started by the simulated cluster only; read afresh after every restart.
 *
 * <p>A job's spec is that of its newest revision: a {@code JobTuned} update (a re-tune while it runs, revision above
 * 0) replaces it, and one at or below the revision already read (a redelivery, a stale update) changes nothing. Each
 * applied update that keeps the job's room is also handed to the {@link #onRetune listener} (the cluster restarts the
 * job's runner with it in place); one that asks for other room (GPUs per task, tasks) is not: the scheduler re-sizes
 * the job, stopping the stint by its next attempt's decision, and that attempt starts with the newest spec.
 */
@ApplicationScoped
public class TunedSpecReader implements TrainingSpecSource {

    private static final Logger LOG = Logger.getLogger(TunedSpecReader.class);
    private static final int REMEMBERED = 100_000;

    private final String bootstrap;
    private final KafkaClientAuth kafkaAuth;
    private final Duration specWait;
    /** A job's newest spec and its revision, with the room that revision asks for. */
    private record Revision(TrainingSpec spec, int revision, int tasks, ResourceAmounts perTask) {

        Revision(JobTuned t) {
            this(t.training(), t.revision(), t.tasks(), t.perTask());
        }

        boolean sameRoom(Revision other) {
            return tasks == other.tasks && perTask.equals(other.perTask);
        }
    }

    private final Map<String, Revision> specs = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Revision> eldest) {
            return size() > REMEMBERED;
        }
    };
    private volatile BiConsumer<String, TrainingSpec> retuned = (jobId, spec) -> { };
    private Instant caughtUpAsOf = Instant.EPOCH;
    private Thread thread;
    private volatile boolean closed;

    public TunedSpecReader(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap, KafkaClientAuth kafkaAuth,
                           RealJobsConfig config) {
        this.bootstrap = bootstrap;
        this.kafkaAuth = kafkaAuth;
        this.specWait = config.specWait();
    }

    /** Who carries out re-tunes: called, on the reader's thread, with each newer revision's job id and spec. */
    public void onRetune(BiConsumer<String, TrainingSpec> listener) {
        this.retuned = listener;
    }

    /** Starts reading (once). */
    public synchronized void start() {
        if (thread == null) {
            thread = new Thread(this::readForever, "tuned-spec-reader");
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Override
    public TrainingSpec specFor(SchedulingDecision d) {
        long deadline = System.nanoTime() + specWait.toNanos();
        synchronized (this) {
            while (true) {
                TrainingSpec known = knownSpec(d.jobId());
                if (known != null || d.durationS() != null || !caughtUpAsOf.isBefore(d.occurredAt())) {
                    // A trace job always has a duration: it never waits for the reader.
                    return known;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    LOG.warnf("job %s: the tuned topic was not read up to its decision within %s; run as a trace job",
                            d.jobId(), specWait);
                    return null;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return knownSpec(d.jobId());
                }
            }
        }
    }

    @Override
    public synchronized TrainingSpec knownSpec(String jobId) {
        Revision r = specs.get(jobId);
        return r == null ? null : r.spec();
    }

    /** Waits until everything written to the tuned topic before now has been read (restart: running jobs' specs). */
    public void awaitCaughtUp(Duration max) {
        Instant now = Instant.now();
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (this) {
            while (caughtUpAsOf.isBefore(now) && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void readForever() {
        Map<String, Object> c = new HashMap<>(kafkaAuth.clientConfig());
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "pod-dispatcher-tuned-specs");
        while (!closed) {
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
                List<TopicPartition> parts = List.of();
                while (!closed && parts.isEmpty()) {
                    Instant asOf = Instant.now();
                    parts = consumer.partitionsFor(Topics.JOBS_TUNED, Duration.ofSeconds(5)).stream()
                            .map(p -> new TopicPartition(Topics.JOBS_TUNED, p.partition())).toList();
                    if (parts.isEmpty()) {
                        // No tuned job yet: nothing can be a real job before its topic exists.
                        markCaughtUp(asOf);
                        Thread.sleep(200);
                    }
                }
                consumer.assign(parts);
                consumer.seekToBeginning(parts);
                while (!closed) {
                    Instant asOf = Instant.now();
                    Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(5));
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                        take(r.value());
                    }
                    boolean all = true;
                    for (TopicPartition p : parts) {
                        all &= consumer.position(p, Duration.ofSeconds(5)) >= end.get(p);
                    }
                    if (all) {
                        markCaughtUp(asOf);
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.warnf("reading %s failed (%s); reading it again in a second", Topics.JOBS_TUNED, e.toString());
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }
    }

    void take(String json) {
        JobTuned tuned;
        try {
            tuned = EventCodec.decode(json, JobTuned.class);
        } catch (InvalidEventException skipped) {
            return; // the scheduler's channel dead-letters it
        }
        if (tuned.training() == null) {
            return;
        }
        boolean inPlace;
        synchronized (this) {
            Revision known = specs.get(tuned.jobId());
            if (known != null && tuned.revision() <= known.revision()) {
                return; // read before, or older than what was read: stale
            }
            Revision next = new Revision(tuned);
            specs.put(tuned.jobId(), next);
            notifyAll();
            // A new room is the scheduler's re-size: its next attempt starts with this spec; no restart in place.
            inPlace = tuned.retune() && (known == null || known.sameRoom(next));
        }
        if (inPlace) {
            retuned.accept(tuned.jobId(), tuned.training());
        }
    }

    private synchronized void markCaughtUp(Instant asOf) {
        if (asOf.isAfter(caughtUpAsOf)) {
            caughtUpAsOf = asOf;
            notifyAll();
        }
    }

    @PreDestroy
    void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }
}
