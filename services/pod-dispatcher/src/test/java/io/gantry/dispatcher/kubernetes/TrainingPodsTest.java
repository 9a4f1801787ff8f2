package io.gantry.dispatcher.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.ModelGraph;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The training pod's security context and Kafka login, from the dispatcher's configuration as the application reads it. */
class TrainingPodsTest {

    private static final TrainingSpec SPEC = new TrainingSpec(new ModelGraph(List.of(
            new ModelGraph.Layer("in", "Input", Map.of()), new ModelGraph.Layer("out", "Output", Map.of())),
            List.of(new ModelGraph.Edge("in", "out"))), "iris", "sgd", 0.05, 16, 10, 7L, null);
    private static final GantryPods.JobSpec JOB = new GantryPods.JobSpec("train-2", "alice", 1,
            new ResourceAmounts(0, 1000, 768), null, null, null, null, SPEC);

    private static DispatcherConfig.Kubernetes config(Map<String, String> properties) {
        // Quarkus' own Duration converter, so "10s" reads as the application reads it.
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(DispatcherConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter()).withDefaultValues(properties).build();
        return config.getConfigMapping(DispatcherConfig.class).kubernetes();
    }

    @Test
    void byDefaultTheCheckpointClaimBelongsToTheRunnersGroupChangedOnlyWhenItsRootDoesNotMatch() {
        Pod pod = TrainingPods.build(JOB, 0, 1, config(Map.of()));
        // 185: the user job-runner.Containerfile runs as; checkpoints go to the claim at /checkpoints.
        assertEquals(185L, pod.getSpec().getSecurityContext().getFsGroup());
        assertEquals("OnRootMismatch", pod.getSpec().getSecurityContext().getFsGroupChangePolicy());
        assertEquals(TrainingPods.CHECKPOINT_DIR, pod.getSpec().getContainers().get(0).getVolumeMounts().stream()
                .filter(m -> m.getName().equals(TrainingPods.CHECKPOINT_VOLUME)).findFirst().orElseThrow()
                .getMountPath());
    }

    /** On a secured broker the runner logs in as job-runner, from the Secret named, never with a password in the spec. */
    @Test
    void withALoginSecretTheRunnerLogsInWithItsJaasLineAndWithoutItSpeaksPlaintext() {
        Pod secured = TrainingPods.build(JOB, 0, 1, config(Map.of("gantry.dispatcher.kubernetes.training.kafka-login-secret",
                "gantry-kafka-job-runner")));
        Map<String, EnvVar> env = new HashMap<>();
        secured.getSpec().getContainers().get(0).getEnv().forEach(e -> env.put(e.getName(), e));
        assertEquals("SASL_PLAINTEXT", env.get(KafkaClientAuth.PROTOCOL_ENV).getValue());
        assertEquals(KafkaClientAuth.SCRAM_SHA_512, env.get(KafkaClientAuth.MECHANISM_ENV).getValue());
        EnvVar jaas = env.get(KafkaClientAuth.JAAS_CONFIG_ENV);
        assertNull(jaas.getValue(), "no login line in the pod spec");
        assertEquals("gantry-kafka-job-runner", jaas.getValueFrom().getSecretKeyRef().getName());
        assertEquals("sasl.jaas.config", jaas.getValueFrom().getSecretKeyRef().getKey());

        Pod plain = TrainingPods.build(JOB, 0, 1, config(Map.of()));
        assertTrue(plain.getSpec().getContainers().get(0).getEnv().stream()
                .noneMatch(e -> e.getName().startsWith("KAFKA_")), "a plaintext runner gets no Kafka settings");
    }

    @Test
    void theGroupIsConfigurableAndANegativeOneLeavesItToTheCluster() {
        Pod other = TrainingPods.build(JOB, 0, 1, config(Map.of("gantry.dispatcher.kubernetes.training.fs-group", "2000")));
        assertEquals(2000L, other.getSpec().getSecurityContext().getFsGroup());
        Pod unset = TrainingPods.build(JOB, 0, 1, config(Map.of("gantry.dispatcher.kubernetes.training.fs-group", "-1")));
        assertNull(unset.getSpec().getSecurityContext() == null ? null
                : unset.getSpec().getSecurityContext().getFsGroup(), "no fsGroup: the cluster's admission sets one");
    }
}
