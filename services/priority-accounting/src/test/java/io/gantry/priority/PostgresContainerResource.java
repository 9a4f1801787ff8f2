package io.gantry.priority;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The PostgreSQL of {@link PostgresAccountingTest}: a container of the image built here from Debian's package
 * ({@code localhost/gantry/postgres:<version>}, deploy/images; never pulled), started with Testcontainers through
 * {@code DOCKER_HOST} (podman's Docker API under {@code .ci/run}; Ryuk disabled, this resource stops its container).
 * A server named by {@code GANTRY_TEST_PG_URL} ({@code _USER}, {@code _PASSWORD}) is used instead when set.
 */
public class PostgresContainerResource implements QuarkusTestResourceLifecycleManager {

    static final String IMAGE = "localhost/gantry/postgres:" + System.getProperty("gantry.version", "0.1.0-SNAPSHOT");
    private GenericContainer<?> container;

    /**
     * Whether the tests can run here: an outside server, or a Docker API socket for Testcontainers ({@code DOCKER_HOST},
     * else Docker's default socket). Decided without Testcontainers' own probe, which cannot run in the class loader
     * Quarkus gives a test's conditions.
     */
    static boolean available() {
        if (System.getenv("GANTRY_TEST_PG_URL") != null) {
            return true;
        }
        String host = System.getenv("DOCKER_HOST");
        if (host == null) {
            return Files.exists(Path.of("/var/run/docker.sock"));
        }
        return !host.startsWith("unix://") || Files.exists(Path.of(host.substring("unix://".length())));
    }

    @Override
    public Map<String, String> start() {
        String url = System.getenv("GANTRY_TEST_PG_URL");
        if (url != null) {
            return Map.of("quarkus.datasource.jdbc.url", url,
                    "quarkus.datasource.username", System.getenv().getOrDefault("GANTRY_TEST_PG_USER", "gantry"),
                    "quarkus.datasource.password", System.getenv().getOrDefault("GANTRY_TEST_PG_PASSWORD", "gantry"));
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException("no container engine for PostgreSQL: set DOCKER_HOST (podman: "
                    + "unix:///run/podman/podman.sock, see README \"Run with containers\") or GANTRY_TEST_PG_URL");
        }
        container = new GenericContainer<>(DockerImageName.parse(IMAGE))
                .withImagePullPolicy(image -> false)
                .withEnv(Map.of("POSTGRES_DB", "gantry_test", "POSTGRES_USER", "gantry", "POSTGRES_PASSWORD", "gantry"))
                .withExposedPorts(5432)
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 1)
                        .withStartupTimeout(Duration.ofMinutes(2)));
        try {
            container.start();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot start " + IMAGE + " (built by ./mvnw -B -DskipTests package -Pimages, "
                    + "or deploy/images/build-images.sh postgres)", e);
        }
        return Map.of(
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(5432) + "/gantry_test",
                "quarkus.datasource.username", "gantry",
                "quarkus.datasource.password", "gantry");
    }

    @Override
    public void stop() {
        if (container != null) {
            container.stop();
        }
    }
}
