package io.gantry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gantry.events.KafkaClientAuth;
import io.gantry.kafka.BrokerAcls;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Containers verify bearer tokens too (README "Security"): every service reads its public key from the variable the
 * manifests and the compose file set, Kubernetes takes it from the {@code gantry-jwt} ConfigMap, and no private key
 * is shipped anywhere under deploy/. On Kubernetes every Deployment and training pod logs in to the SCRAM-only broker
 * as its own KafkaUser, whose ACLs are BrokerAcls' (compose's logins: DockerComposeTest).
 */
class SecurityManifestsTest {

    /** The variable the containers get the key's PEM text in (Quarkus' name for {@code mp.jwt.verify.publickey}). */
    static final String KEY_ENV = "MP_JWT_VERIFY_PUBLICKEY";

    @Test
    void everyServiceVerifiesTokensAndClosesWhatItDoesNotOpen() {
        for (String service : DeploymentManifestsTest.SERVICES) {
            ServiceSources src = ServiceSources.of(service);
            assertTrue(src.hasDependency("service-support"), service + " (quarkus-smallrye-jwt comes with service-support)");
            // The key comes from the environment only: an empty default would stop the service from starting.
            assertEquals(Optional.empty(), src.property("mp.jwt.verify.publickey.location", null), service);
            assertEquals(Optional.of("gantry-test-jwt/public.pem"), src.property("mp.jwt.verify.publickey.location", "test"), service);
            assertEquals(Optional.of("true"), src.property("quarkus.security.jaxrs.deny-unannotated-endpoints", null), service);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyDeploymentTakesThePublicKeyFromTheGantryJwtConfigMap(String overlay) {
        Manifests m = DeploymentManifestsTest.overlay(overlay);
        for (String service : DeploymentManifestsTest.SERVICES) {
            Container c = DeploymentManifestsTest.container(m.one(Deployment.class, service), service);
            ConfigMapKeySelector ref = Optional.ofNullable(c.getEnv()).orElse(List.of()).stream()
                    .filter(e -> e.getName().equals(KEY_ENV)).map(EnvVar::getValueFrom)
                    .filter(v -> v != null && v.getConfigMapKeyRef() != null).map(v -> v.getConfigMapKeyRef())
                    .findFirst().orElseThrow(() -> new AssertionError(service + " takes no " + KEY_ENV + " from a ConfigMap"));
            assertEquals("gantry-jwt", ref.getName(), service);
            assertEquals("public.pem", ref.getKey(), service);
        }
    }

    /**
     * The broker takes SCRAM logins only, on every listener, and the KafkaUsers' ACLs decide (README "Security"): each
     * Deployment logs in as the KafkaUser of its own name, with the login line Strimzi's User Operator writes into that
     * user's Secret; no password is in the manifests; and every KafkaUser may do exactly what embedded-kafka's
     * BrokerAcls lets that principal do on the broker of ./gantry up and compose.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyDeploymentLogsInToKafkaAsItsOwnKafkaUser(String overlay) throws IOException {
        Manifests m = DeploymentManifestsTest.overlay(overlay);
        GenericKubernetesResource kafka = m.custom("kafka.strimzi.io/v1beta2", "Kafka").findFirst().orElseThrow();
        for (Object l : (List<?>) kafka.get("spec", "kafka", "listeners")) {
            Map<?, ?> listener = (Map<?, ?>) l;
            Object auth = listener.get("authentication") instanceof Map<?, ?> a ? a.get("type") : null;
            assertEquals("scram-sha-512", auth, "listener " + listener.get("name") + " lets clients in without a SCRAM login");
        }
        assertEquals("simple", kafka.get("spec", "kafka", "authorization", "type"), "the broker checks no ACLs");
        String prefix = kafka.get("spec", "entityOperator", "userOperator", "secretPrefix");
        assertNotNull(prefix, "no user operator (with a secretPrefix) turns the KafkaUsers into logins");

        String cluster = kafka.getMetadata().getName();
        Map<String, GenericKubernetesResource> users = new HashMap<>();
        m.custom("kafka.strimzi.io/v1beta2", "KafkaUser").forEach(u -> users.put(u.getMetadata().getName(), u));
        Set<String> expected = new TreeSet<>(DeploymentManifestsTest.SERVICES);
        expected.addAll(List.of(BrokerAcls.RUNNER, BrokerAcls.SUBMITTER));
        assertEquals(expected, new TreeSet<>(users.keySet()), "KafkaUsers: each service, the job runner, the submitter");
        for (GenericKubernetesResource user : users.values()) {
            String name = user.getMetadata().getName();
            assertEquals(cluster, user.getMetadata().getLabels().get("strimzi.io/cluster"), name + ": strimzi.io/cluster");
            assertEquals(kafka.getMetadata().getNamespace(), user.getMetadata().getNamespace(), name + ": namespace");
            assertEquals("scram-sha-512", user.get("spec", "authentication", "type"), name + " authentication");
            assertTrue(user.get("spec", "authentication", "password") == null, name + ": a password in the manifests");
            assertEquals("simple", user.get("spec", "authorization", "type"), name + " authorization");
            assertEquals(brokerAcls(name), strimziAcls(user.get("spec", "authorization", "acls")),
                    name + "'s ACLs vs BrokerAcls");
        }

        for (String service : DeploymentManifestsTest.SERVICES) {
            Container c = DeploymentManifestsTest.container(m.one(Deployment.class, service), service);
            assertEquals(Optional.of("SASL_PLAINTEXT"), DeploymentManifestsTest.env(c, KafkaClientAuth.PROTOCOL_ENV),
                    service + " " + KafkaClientAuth.PROTOCOL_ENV);
            assertEquals(Optional.of(KafkaClientAuth.SCRAM_SHA_512), DeploymentManifestsTest.env(c, KafkaClientAuth.MECHANISM_ENV),
                    service + " " + KafkaClientAuth.MECHANISM_ENV);
            assertEquals(prefix + service + "/sasl.jaas.config",
                    DeploymentManifestsTest.secretRefs(c).get(KafkaClientAuth.JAAS_CONFIG_ENV),
                    service + " takes no " + KafkaClientAuth.JAAS_CONFIG_ENV + " from its KafkaUser's Secret");
        }

        // The training pods log in as job-runner from the Secret the dispatcher names, in their own namespace, which
        // deploy/kafka-runner-secret.sh copies from that KafkaUser's Secret.
        Container dispatcher = DeploymentManifestsTest.container(m.one(Deployment.class, "pod-dispatcher"), "pod-dispatcher");
        String runnerSecret = DeploymentManifestsTest.env(dispatcher, "GANTRY_DISPATCHER_KUBERNETES_TRAINING_KAFKA_LOGIN_SECRET")
                .orElseThrow(() -> new AssertionError("the training pods get no Kafka login"));
        String jobNamespace = DeploymentManifestsTest.env(dispatcher, "GANTRY_DISPATCHER_KUBERNETES_JOB_NAMESPACE")
                .orElse("gantry-jobs");
        String copy = Files.readString(ServiceSources.ROOT.resolve("deploy/kafka-runner-secret.sh"));
        String from = prefix + BrokerAcls.RUNNER;
        assertTrue(copy.contains("get secret " + from + " ") && copy.contains("  name: " + runnerSecret + "\n")
                && copy.contains("  namespace: " + jobNamespace + "\n") && copy.contains("  sasl.jaas.config: $jaas\n"),
                "deploy/kafka-runner-secret.sh does not copy " + from + " to " + jobNamespace + "/" + runnerSecret);
    }

    /** What BrokerAcls grants {@code principal}, as "TYPE name PATTERN OPERATION" lines. */
    private static Set<String> brokerAcls(String principal) {
        return BrokerAcls.bindings().stream().filter(b -> b.entry().principal().equals("User:" + principal))
                .map(b -> b.pattern().resourceType() + " " + b.pattern().name() + " " + b.pattern().patternType() + " "
                        + b.entry().operation())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** A KafkaUser's {@code spec.authorization.acls} as the same lines (Strimzi names: topic, prefix, Read...). */
    private static Set<String> strimziAcls(List<Map<String, Object>> acls) {
        Set<String> lines = new TreeSet<>();
        for (Map<String, Object> acl : acls) {
            assertTrue(acl.get("type") == null || "allow".equals(acl.get("type")), "a deny rule: " + acl);
            Map<?, ?> resource = (Map<?, ?>) acl.get("resource");
            String pattern = "prefix".equals(resource.get("patternType")) ? "PREFIXED" : "LITERAL";
            for (Object op : (List<?>) acl.get("operations")) {
                // Strimzi's names are Kafka's in camel case: Read -> READ, IdempotentWrite -> IDEMPOTENT_WRITE.
                String operation = op.toString().replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
                String type = resource.get("type").toString().toUpperCase(Locale.ROOT);
                lines.add(type + " " + resource.get("name") + " " + pattern + " " + operation);
            }
        }
        return lines;
    }

    @Test
    void composePassesThePublicKeyToEveryService() throws IOException {
        DockerComposeTest.read();
        for (String service : Stream.concat(DeploymentManifestsTest.SERVICES.stream(), Stream.of("studio")).toList()) {
            assertEquals("${GANTRY_JWT_PUBLIC_KEY:-}", DockerComposeTest.env(DockerComposeTest.service(service)).get(KEY_ENV), service);
        }
        assertTrue(Files.readString(ServiceSources.ROOT.resolve("deploy/compose.sh")).contains("export GANTRY_JWT_PUBLIC_KEY"),
                "./gantry compose up no longer exports the public key");
    }

    @Test
    void noPrivateKeyIsShipped() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(ServiceSources.ROOT.resolve("deploy"))) {
            for (java.nio.file.Path f : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
                assertFalse(text.contains("PRIVATE KEY-----"), f + " holds a private key");
            }
        }
    }
}
