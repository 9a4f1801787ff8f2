package io.gantry.dispatcher.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.events.KafkaClientAuth;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a job-runner process is told about Kafka: its own login on a secured broker, never the dispatcher's. */
class RunnerKafkaLoginTest {

    private static final KafkaClientAuth DISPATCHER = KafkaClientAuth.scram("pod-dispatcher", "dispatcher-pass");
    private static final String RUNNER = KafkaClientAuth.scramJaasConfig("job-runner", "runner-pass");

    @Test
    void onASecuredBrokerTheRunnerLogsInAsItself() {
        Map<String, String> env = RealJobProcesses.runnerKafkaEnvironment(DISPATCHER, Optional.of(RUNNER));
        assertEquals(KafkaClientAuth.scram("job-runner", "runner-pass"), KafkaClientAuth.fromEnvironment(env));
    }

    @Test
    void withoutARunnerLoginTheRunnerGetsNoneRatherThanTheDispatchers() {
        Map<String, String> env = RealJobProcesses.runnerKafkaEnvironment(DISPATCHER, Optional.empty());
        assertEquals("", env.get(KafkaClientAuth.JAAS_CONFIG_ENV), "the inherited login is blanked");
        // The runner then refuses to start, naming the setting (JobRunner reports it as its failure).
        assertThrows(IllegalArgumentException.class, () -> KafkaClientAuth.fromEnvironment(env));
    }

    @Test
    void onAPlaintextBrokerTheRunnerSpeaksPlaintext() {
        Map<String, String> env = RealJobProcesses.runnerKafkaEnvironment(KafkaClientAuth.PLAINTEXT, Optional.of(RUNNER));
        assertEquals(KafkaClientAuth.PLAINTEXT, KafkaClientAuth.fromEnvironment(env));
    }
}
