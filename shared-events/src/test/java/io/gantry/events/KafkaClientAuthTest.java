package io.gantry.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClientAuthTest {

    private static final String JAAS = KafkaClientAuth.scramJaasConfig("job-runner", "s3cret-pass");

    @Test
    void nothingSetIsPlaintextWithNoSaslEntries() {
        KafkaClientAuth auth = KafkaClientAuth.fromEnvironment(Map.of());
        assertEquals(Map.of("security.protocol", "PLAINTEXT"), auth.clientConfig());
        assertFalse(auth.sasl());
        // As a service's application.properties gives them when the environment is not set: blank is unset.
        assertEquals(auth, new KafkaClientAuth("PLAINTEXT", "SCRAM-SHA-512", ""));
        assertEquals(KafkaClientAuth.PLAINTEXT, new KafkaClientAuth(" ", "", null));
    }

    @Test
    void saslFromTheEnvironmentGivesTheThreeClientSettings() {
        KafkaClientAuth auth = KafkaClientAuth.fromEnvironment(Map.of(KafkaClientAuth.PROTOCOL_ENV, "sasl_plaintext",
                KafkaClientAuth.JAAS_CONFIG_ENV, JAAS));
        assertEquals(Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", JAAS), auth.clientConfig(), "the mechanism defaults to Gantry's SCRAM-SHA-512");
        assertEquals(KafkaClientAuth.scram("job-runner", "s3cret-pass"), auth);
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"job-runner\""
                + " password=\"s3cret-pass\";", JAAS);
    }

    @Test
    void aSaslProtocolWithoutCredentialsIsRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KafkaClientAuth.fromEnvironment(Map.of(KafkaClientAuth.PROTOCOL_ENV, "SASL_PLAINTEXT")));
        assertTrue(e.getMessage().contains(KafkaClientAuth.JAAS_CONFIG_ENV), e.getMessage());
    }

    @Test
    void theEnvironmentOfAChildReadsBackAndReplacesInheritedCredentials() {
        KafkaClientAuth parent = KafkaClientAuth.scram("pod-dispatcher", "dispatcher-pass");
        KafkaClientAuth child = parent.withJaasConfig(JAAS);
        assertEquals(child, KafkaClientAuth.fromEnvironment(child.environment()));
        // A plaintext child blanks the credentials it would otherwise inherit from its parent's environment.
        Map<String, String> plain = KafkaClientAuth.PLAINTEXT.environment();
        assertEquals("", plain.get(KafkaClientAuth.JAAS_CONFIG_ENV));
        assertEquals(KafkaClientAuth.PLAINTEXT, KafkaClientAuth.fromEnvironment(plain));
    }

    @Test
    void toStringNamesTheUserButNeverThePassword() {
        KafkaClientAuth auth = KafkaClientAuth.scram("job-runner", "s3cret-pass");
        assertEquals("SASL_PLAINTEXT SCRAM-SHA-512 as job-runner", auth.toString());
        assertFalse(auth.toString().contains("s3cret"));
        assertEquals("PLAINTEXT", KafkaClientAuth.PLAINTEXT.toString());
    }
}
