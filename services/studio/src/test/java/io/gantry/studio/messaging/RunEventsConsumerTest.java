package io.gantry.studio.messaging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.studio.service.RunSpecs;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/** Which records the studio may acknowledge without decoding them: only those keyed with a job id it cannot have given. */
class RunEventsConsumerTest {

    private static Message<String> keyed(String key) {
        ConsumerRecord<String, String> record = new ConsumerRecord<>("gantry.jobs.lifecycle", 0, 7, key, "{not json");
        return Message.of("{not json").addMetadata(new IncomingKafkaRecordMetadata<>(record, "lifecycle"));
    }

    @Test
    void anotherSubmittersJobIsSkippedUndecoded() {
        assertTrue(RunEventsConsumer.notARun(keyed("philly-12345")));
    }

    @Test
    void aStudioRunIsDecodedEvenWhenMalformed() {
        // Decoded, so a malformed record of a studio run still reaches the dead-letter topic.
        assertFalse(RunEventsConsumer.notARun(keyed(RunSpecs.newJobId())));
    }

    @Test
    void aRecordWithoutKeyOrMetadataIsDecoded() {
        assertFalse(RunEventsConsumer.notARun(keyed(null)));
        assertFalse(RunEventsConsumer.notARun(Message.of("{}")));
    }
}
