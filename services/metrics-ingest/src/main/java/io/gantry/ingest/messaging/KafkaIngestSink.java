package io.gantry.ingest.messaging;

import io.gantry.events.NodeMetrics;
import io.gantry.ingest.service.IngestSink;
import io.gantry.ingest.service.Rejection;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Node metrics to {@code gantry.cluster.metrics} (key = node), unusable source data to
 * {@code gantry.dlq.metrics-ingest} (key = node or {@code line}, value = the source's raw lines) with the same
 * {@code dead-letter-reason} header the consumers' dead-letter topics carry.
 */
@ApplicationScoped
public class KafkaIngestSink implements IngestSink {

    static final String METRICS = "node-metrics";
    static final String DEAD_LETTERS = "dead-letters";

    private final EventIntake intake;
    private final Emitter<String> metrics;
    private final Emitter<String> deadLetters;

    public KafkaIngestSink(EventIntake intake,
                           @Channel(METRICS) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                           Emitter<String> metrics,
                           @Channel(DEAD_LETTERS) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                           Emitter<String> deadLetters) {
        this.intake = intake;
        this.metrics = metrics;
        this.deadLetters = deadLetters;
    }

    @Override
    public void publish(NodeMetrics m) {
        intake.send(METRICS, metrics, Outbound.message(m));
    }

    @Override
    public void deadLetter(Rejection rejection, String sourceDescription) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("dead-letter-reason", rejection.reason().getBytes(StandardCharsets.UTF_8));
        headers.add("dead-letter-source", sourceDescription.getBytes(StandardCharsets.UTF_8));
        intake.send(DEAD_LETTERS, deadLetters, Message.of(rejection.evidence()).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withKey(rejection.subject()).withHeaders(headers).build()));
    }
}
