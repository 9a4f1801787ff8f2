package io.gantry.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.JobCompleted;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Topics;
import io.gantry.kafka.FreePorts;
import io.gantry.kafka.TopicProbe;
import io.gantry.system.ExactlyOnceChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * Issue 18: the whole pipeline in containers built by Testcontainers itself, where the in-process broker stands in
 * for the system tests: the broker image and the five service images (priority-accounting's PostgreSQL build, on the
 * PostgreSQL image) as {@link GenericContainer}s on one {@link Network}, under the compose service names as network
 * aliases and configured through the environment exactly as docker-compose.yml configures them; never pulled
 * ({@code localhost/gantry/*}, from {@code -Pimages}). Each service is started when its {@code /q/health/ready}
 * answers 200. The broker advertises {@code kafka:9092} to the containers and {@code localhost:<host port>} to this
 * test, whose replay CLI submits a window of the real openb trace through that port; every job then completes exactly once (one JobCompleted per job,
 * one start and one decision per stint, nothing failed). Every container and the network are removed at the end,
 * and the test checks the engine holds none of this session's left.
 *
 * <p>Testcontainers reaches the engine through {@code DOCKER_HOST} (podman: {@code unix:///run/podman/podman.sock});
 * Ryuk is disabled (its image cannot be pulled here): the test stops what it starts. Without an engine or the images
 * it is skipped, under {@code CI=true} it fails.
 */
class TestcontainersPipelineTest {

    private static final int JOBS = 36;
    /** Where the window starts in the openb trace (as ComposeSystemTest's kill, a busy stretch). */
    private static final int TRACE_SKIP = 6500;
    private static final Duration STARTUP = Duration.ofMinutes(3);
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
    private static final String IMAGE_TAG = ComposeStack.IMAGE_TAG;
    private static final Path LOGS = ComposeStack.ROOT.resolve("container-tests/target/testcontainers-pipeline");
    /** As docker-compose.yml's services, in Topics.SERVICES' port order 8081..8085. */
    private static final List<String> SERVICES = List.of("metrics-ingest", "job-tuner", "priority-accounting",
            "sac-scheduler", "pod-dispatcher");

    @Test
    void brokerAndFiveServicesAsTestcontainersCompleteEveryJobExactlyOnce() throws Exception {
        List<String> images = new ArrayList<>(List.of("kafka", "postgres"));
        images.addAll(SERVICES);
        ComposeStack.engineOrSkip(images);
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            skipOrFail("Testcontainers finds no Docker API (set DOCKER_HOST; podman: unix:///run/podman/podman.sock, "
                    + "started by `podman system service --time=0 unix:///run/podman/podman.sock`)");
        }
        Path logs = LOGS;
        Files.createDirectories(logs);
        try (var old = Files.list(logs)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        int kafkaHostPort = FreePorts.one();
        String bootstrap = "localhost:" + kafkaHostPort;

        List<GenericContainer<?>> started = new ArrayList<>();
        Network network = Network.newNetwork();
        try {
            // The broker: its host listener (container port 29092) must advertise the host port a client is given, so
            // that port is chosen here and bound, rather than left to the engine as the services' ports are.
            GenericContainer<?> kafka = container("kafka", "kafka")
                    // The image's plaintext broker, asked for by name: this test is about the containers, not the
                    // logins (ComposeSystemTest runs the secured stack).
                    .withEnv(Map.of("KAFKA_ADVERTISED_HOST", "kafka", "KAFKA_EXTERNAL_ADVERTISED", bootstrap,
                            "KAFKA_PARTITIONS", "3", "KAFKA_INSECURE_PLAINTEXT", "true"))
                    .withExposedPorts(29092)
                    // Its own admin client creates the topics through kafka:9092: the hostname resolves in /etc/hosts.
                    .withCreateContainerCmdModifier(cmd -> cmd.withHostName("kafka"))
                    // Printed once the broker is up and every Gantry topic exists (then it writes the ready file compose tests).
                    .waitingFor(Wait.forLogMessage("READY .*\\n", 1).withStartupTimeout(STARTUP));
            kafka.setPortBindings(List.of(kafkaHostPort + ":29092"));
            GenericContainer<?> postgres = container("postgres", "postgres")
                    .withEnv(Map.of("POSTGRES_DB", "gantry", "POSTGRES_USER", "gantry", "POSTGRES_PASSWORD", "gantry"))
                    .withExposedPorts(5432)
                    .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 1)
                            .withStartupTimeout(STARTUP));
            startAll(started, List.of(kafka, postgres));

            // The compose names also as /etc/hosts entries: here (podman 4.3, netavark) the network aliases set by
            // Testcontainers did not resolve (UnknownHostException: kafka, in three runs), although an alias set by hand
            // through the same Docker API does; the cause is not found, /etc/hosts does not depend on it.
            Map<String, String> hosts = new LinkedHashMap<>(Map.of("kafka", ip(kafka), "postgres", ip(postgres)));
            Map<String, GenericContainer<?>> services = new LinkedHashMap<>();
            for (int i = 0; i < SERVICES.size(); i++) {
                String name = SERVICES.get(i);
                int port = 8081 + i;
                Map<String, String> env = new LinkedHashMap<>(Map.of(
                        "KAFKA_BOOTSTRAP_SERVERS", "kafka:9092",
                        "GANTRY_SIMULATED_CLUSTER_NODES", "13",
                        "GANTRY_SIMULATED_CLUSTER_SPEEDUP", "1000",
                        "GANTRY_DATA_DIR", "/var/lib/gantry"));
                GenericContainer<?> c = container(name, name.equals("priority-accounting") ? name + ":" + IMAGE_TAG + "-pg" : name);
                switch (name) {
                    case "metrics-ingest" -> env.put("GANTRY_INGEST_SOURCE_URL", "http://pod-dispatcher:8085/simulated-cluster/metrics");
                    case "priority-accounting" -> env.putAll(Map.of("QUARKUS_PROFILE", "pg",
                            "GANTRY_DB_URL", "jdbc:postgresql://postgres:5432/gantry",
                            "GANTRY_DB_USER", "gantry", "GANTRY_DB_PASSWORD", "gantry"));
                    case "sac-scheduler" -> env.put("GANTRY_SCHEDULER_POLICY", "sac");
                    case "pod-dispatcher" -> {
                        env.put("GANTRY_DISPATCHER_CLUSTER", "simulated");
                        Path datasets = Path.of(System.getProperty("gantry.shared.dir",
                                ComposeStack.ROOT.resolve("../shared").toString())).resolve("datasets");
                        if (Files.isDirectory(datasets)) {
                            c.withFileSystemBind(datasets.toString(), "/datasets", BindMode.READ_ONLY);
                        }
                    }
                    default -> { }
                }
                c.withEnv(env).withExposedPorts(port)
                        .waitingFor(Wait.forHttp("/q/health/ready").forPort(port).forStatusCode(200)
                                .withStartupTimeout(STARTUP));
                services.put(name, c);
            }
            // Four at once, once their Kafka channels (and priority-accounting's datasource) are up; then
            // metrics-ingest, ready once pod-dispatcher's exposition answers.
            GenericContainer<?> ingest = services.remove("metrics-ingest");
            services.values().forEach(c -> hosts.forEach(c::withExtraHost));
            startAll(started, services.values());
            hosts.put("pod-dispatcher", ip(services.get("pod-dispatcher")));
            hosts.forEach(ingest::withExtraHost);
            startAll(started, List.of(ingest));

            // A window of the real Alibaba (openb) trace, submitted by the replay CLI as ./gantry up does.
            Path summary = LOGS.resolve("summary.json");
            Process replay = ComposeStack.replay(bootstrap, KafkaClientAuth.PLAINTEXT, JOBS, TRACE_SKIP, summary, RUN_TIMEOUT, LOGS);
            String context = JOBS + " openb jobs through " + bootstrap + "; logs in " + LOGS;
            try (TopicProbe probe = new TopicProbe(bootstrap)) {
                assertTrue(replay.waitFor(RUN_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS), "the replay did not end; " + context);
                assertEquals(0, replay.exitValue(), "replay exit code; " + context);
                JsonNode sum = ExactlyOnceChecks.summaryEndedEveryJobOnce(summary, JOBS, context);
                int completed = sum.get("completed").asInt();
                assertTrue(completed > 0, "some jobs completed; " + context);

                Map<String, Integer> completions = new HashMap<>();
                for (TopicProbe.Seen r : probe.readAll(Topics.JOBS_LIFECYCLE)) {
                    LifecycleEvent e = EventCodec.decode(r.value(), LifecycleEvent.class);
                    if (e instanceof JobCompleted done) {
                        completions.merge(done.jobId(), 1, Integer::sum);
                    }
                }
                assertEquals(completed, completions.size(), "one JobCompleted per completed job; " + context);
                completions.forEach((job, n) -> assertEquals(1, n, job + " completed " + n + " times; " + context));
                ExactlyOnceChecks.eachStintStartedOnceAndNothingFailed(probe, context);
            } finally {
                replay.destroyForcibly();
            }
        } finally {
            // Reverse order: the services before the broker and PostgreSQL they use.
            for (int i = started.size() - 1; i >= 0; i--) {
                started.get(i).stop();
            }
            network.close();
        }
        String session = "label=org.testcontainers.sessionId=" + DockerClientFactory.SESSION_ID;
        String engine = ComposeStack.engineOrSkip(List.of());
        assertEquals("", ComposeStack.output(List.of(engine, "ps", "-a", "-q", "--filter", session)), "containers left");
        assertEquals("", ComposeStack.output(List.of(engine, "network", "ls", "-q", "--filter", session)), "networks left");
    }

    /** {@code localhost/gantry/<image>} (the image tag added unless given), never pulled, on the network as {@code alias}. */
    @SuppressWarnings("resource") // stopped in the test's finally block
    private static GenericContainer<?> container(String alias, String image) {
        String name = "localhost/gantry/" + (image.contains(":") ? image : image + ":" + IMAGE_TAG);
        return new GenericContainer<>(DockerImageName.parse(name))
                .withImagePullPolicy(i -> false)
                .withLogConsumer(frame -> appendLog(alias, frame.getUtf8String()))
                .withNetworkAliases(alias);
    }

    private static String ip(GenericContainer<?> c) {
        return c.getContainerInfo().getNetworkSettings().getNetworks().values().iterator().next().getIpAddress();
    }

    private static void startAll(List<GenericContainer<?>> started, java.util.Collection<GenericContainer<?>> containers) {
        started.addAll(containers);
        Startables.deepStart(containers.stream()).join();
    }

    /** Each container's output under target/testcontainers-pipeline/, for a failure's post-mortem. */
    private static synchronized void appendLog(String alias, String text) {
        try {
            Files.writeString(LOGS.resolve(alias + ".log"), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // a post-mortem aid only
        }
    }

    private static void skipOrFail(String why) {
        if ("true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true, but " + why);
        }
        Assumptions.assumeTrue(false, "skipped: " + why);
    }
}
