package io.gantry.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The secured broker (real KRaft, in this JVM): a producer without SCRAM credentials, with a wrong password, or
 * authenticated as a principal that does not own the topic cannot write {@code gantry.scheduling.decisions}; the
 * scheduler's principal can, and a service reads it back.
 */
class BrokerSecurityTest {

    private static final Map<String, String> PASSWORDS = Map.of("sac-scheduler", "sched-secret-1",
            "pod-dispatcher", "disp-secret-1", BrokerAcls.SUBMITTER, "submit-secret-1");
    /** How long a login that should work may take to fetch its metadata. */
    private static final Duration METADATA_WAIT = Duration.ofSeconds(20);
    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("gantry-kafka-secure");
        broker = new EmbeddedKafkaBroker(dir, 0, 1).secured(new BrokerSecurity("admin-secret-1", PASSWORDS)).start();
        broker.createGantryTopics();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aProducerWithoutCredentialsCannotWriteDecisions() {
        // A plaintext client never completes a handshake with a SASL listener: it cannot even fetch metadata.
        assertThrows(TimeoutException.class, () -> send(Map.of(), Duration.ofSeconds(5), Topics.SCHEDULING_DECISIONS));
    }

    @Test
    void aWrongPasswordIsRefused() {
        Map<String, Object> wrong = BrokerSecurity.clientConfig("sac-scheduler", "not-the-password");
        assertThrows(SaslAuthenticationException.class,
                () -> send(wrong, Duration.ofSeconds(10), Topics.SCHEDULING_DECISIONS));
    }

    @Test
    void onlyTheSchedulerMayWriteDecisions() throws Exception {
        for (String other : List.of(BrokerAcls.SUBMITTER, "pod-dispatcher")) {
            assertThrows(TopicAuthorizationException.class, () -> send(BrokerSecurity.clientConfig(other,
                    PASSWORDS.get(other)), METADATA_WAIT, Topics.SCHEDULING_DECISIONS), other + " refused");
        }
        // The submitter may write what it owns.
        send(BrokerSecurity.clientConfig(BrokerAcls.SUBMITTER, PASSWORDS.get(BrokerAcls.SUBMITTER)), METADATA_WAIT,
                Topics.JOBS_SUBMITTED);

        send(BrokerSecurity.clientConfig("sac-scheduler", PASSWORDS.get("sac-scheduler")), METADATA_WAIT,
                Topics.SCHEDULING_DECISIONS);
        Map<String, Object> c = new HashMap<>(BrokerSecurity.clientConfig("pod-dispatcher", PASSWORDS.get("pod-dispatcher")));
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "pod-dispatcher");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(Topics.SCHEDULING_DECISIONS));
            String seen = null;
            long deadline = System.currentTimeMillis() + 30_000;
            while (seen == null && System.currentTimeMillis() < deadline) {
                for (var r : consumer.poll(Duration.ofMillis(500))) {
                    seen = r.key();
                }
            }
            assertEquals("job-1", seen, "the dispatcher reads the scheduler's decision");
        }
    }

    @Test
    void badSecuritySettingsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BrokerSecurity("admin-secret-1", Map.of("mallory", "whatever-1")));
        assertTrue(e.getMessage().startsWith("passwords: mallory is not a Gantry principal"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new BrokerSecurity("short", Map.of()));
        assertTrue(e.getMessage().startsWith("adminPassword:"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new BrokerSecurity("admin-secret-1", Map.of("studio", "has\"quote-1")));
        assertTrue(e.getMessage().startsWith("passwords: studio's password"), e.getMessage());
    }

    private static void send(Map<String, Object> auth, Duration maxBlock, String topic) throws Exception {
        TopicProbe.sendOnce(broker.bootstrapServers(), auth, maxBlock, topic, "job-1");
    }
}
