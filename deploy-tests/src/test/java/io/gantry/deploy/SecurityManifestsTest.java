package io.gantry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Containers verify bearer tokens too (README "Security"): every service reads its public key from the variable the
 * manifests and the compose file set, Kubernetes takes it from the {@code gantry-jwt} ConfigMap, and no private key
 * is shipped anywhere under deploy/.
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
