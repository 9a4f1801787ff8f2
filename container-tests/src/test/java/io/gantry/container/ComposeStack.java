package io.gantry.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.KafkaClientAuth;
import io.gantry.system.GantryProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * docker-compose.yml started with {@code ./gantry compose}, as a user does, under its own compose project and on
 * ports of its own (so it runs beside a {@code ./gantry up} or a user's stack), on the images of {@code -Pimages}.
 * Without a container engine the tests are skipped, except under {@code CI=true}, where they fail.
 */
final class ComposeStack implements AutoCloseable {

    static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("gantry.version", "0.1.0-SNAPSHOT");
    /** The images' tag: the version, or GANTRY_IMAGE_TAG, as build-images.sh and docker-compose.yml read it. */
    static final String IMAGE_TAG = Optional.ofNullable(System.getenv("GANTRY_IMAGE_TAG")).filter(t -> !t.isBlank()).orElse(VERSION);
    static final String KAFKA_PORT = "39092";
    /** Published ports of the five services, in the order of Topics.SERVICES' ports 8081..8085. */
    static final Map<String, Integer> SERVICE_PORTS = new LinkedHashMap<>();

    static {
        String[] names = {"metrics-ingest", "job-tuner", "priority-accounting", "sac-scheduler", "pod-dispatcher",
            "studio"};
        for (int i = 0; i < names.length; i++) {
            SERVICE_PORTS.put(names[i], 38081 + i);
        }
    }

    final String project;
    final Path logs;
    private final Map<String, String> env = new LinkedHashMap<>();
    private boolean up;

    /** The services whose image is their PostgreSQL build, tagged {@code <version>-pg}. */
    static final List<String> PG_BUILDS = List.of("priority-accounting", "studio");

    /** The images docker-compose.yml runs (Grafana, under its optional profile, aside). */
    static final List<String> COMPOSE_IMAGES = List.of("kafka", "postgres", "prometheus", "metrics-ingest", "job-tuner",
            "priority-accounting", "sac-scheduler", "pod-dispatcher", "studio");

    /** Skips (or, under CI=true, fails) unless an engine and every image of docker-compose.yml are there. */
    static String engineOrSkip() {
        return engineOrSkip(COMPOSE_IMAGES);
    }

    /** Skips (or, under CI=true, fails) unless an engine and these images ({@code localhost/gantry/<name>}) are there. */
    static String engineOrSkip(List<String> images) {
        String engine = null;
        for (String candidate : List.of("podman", "docker")) {
            try {
                if (new ProcessBuilder(candidate, "info").redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0) {
                    engine = candidate;
                    break;
                }
            } catch (IOException | InterruptedException e) {
                // not installed
            }
        }
        String why = null;
        if (engine == null) {
            why = "no container engine (podman or a running Docker) on this machine";
        } else {
            for (String image : images) {
                String tag = "localhost/gantry/" + image + ":" + IMAGE_TAG + (PG_BUILDS.contains(image) ? "-pg" : "");
                if (run(List.of(engine, "image", "inspect", tag), Duration.ofSeconds(30)) != 0) {
                    why = "the image " + tag + " is missing: ./mvnw -B -DskipTests package -Pimages builds it";
                    break;
                }
            }
        }
        if (why != null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException("CI=true, but " + why + " (.ci/run installs podman and builds the images)");
            }
            Assumptions.assumeTrue(false, "skipped: " + why);
        }
        return engine;
    }

    ComposeStack(String project, Map<String, String> extraEnv) throws IOException {
        this.project = project;
        this.logs = ROOT.resolve("container-tests/target/" + project);
        Files.createDirectories(logs);
        env.put("COMPOSE_PROJECT_NAME", project);
        env.put("GANTRY_COMPOSE_KAFKA_PORT", KAFKA_PORT);
        env.put("GANTRY_COMPOSE_POSTGRES_PORT", "35432");
        env.put("GANTRY_COMPOSE_PROMETHEUS_PORT", "39090");
        env.put("GANTRY_IMAGE_TAG", IMAGE_TAG);
        SERVICE_PORTS.forEach((name, port) ->
                env.put("GANTRY_COMPOSE_" + name.toUpperCase().replace('-', '_') + "_PORT", String.valueOf(port)));
        env.putAll(extraEnv);
    }

    String bootstrap() {
        return "localhost:" + KAFKA_PORT;
    }

    /** Where ./gantry compose writes this project's tokens and Kafka logins. */
    Path securityDir() {
        return ROOT.resolve(".gantry/compose").resolve(project).resolve("security");
    }

    /**
     * The Kafka login of the client config file ./gantry compose writes for people's console tools, e.g.
     * {@code kafka-submitter.properties}, as a Gantry client takes it.
     */
    KafkaClientAuth clientLogin(String fileName) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(securityDir().resolve(fileName))) {
            p.load(in);
        }
        return new KafkaClientAuth(p.getProperty("security.protocol"), p.getProperty("sasl.mechanism"),
                p.getProperty("sasl.jaas.config"));
    }

    /** {@code ./gantry compose up}: returns once every container with a health check is healthy. */
    ComposeStack up() {
        // A stack left by an aborted run of this test goes first.
        gantryCompose(Duration.ofMinutes(2), "down", "-v");
        up = true;
        assertEquals(0, gantryCompose(Duration.ofMinutes(8), "up"), "./gantry compose up failed; see " + logs);
        return this;
    }

    /** {@code ./gantry compose down -v}. */
    int down() {
        up = false;
        return gantryCompose(Duration.ofMinutes(3), "down", "-v");
    }

    int gantryCompose(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("gantry").toString(), "compose"));
        command.addAll(List.of(args));
        return run(command, timeout, env, logs.resolve("gantry-compose.log"));
    }

    /** The engine's view of this project: {@code name state health restarts=N}, one line per container. */
    String status() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("gantry").toString(), "compose", "status");
        pb.environment().putAll(env);
        Process p = pb.redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            p.waitFor(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    /** Saves every container's log under target/, for a failure's post-mortem. */
    void saveLogs() {
        gantryCompose(Duration.ofMinutes(1), "logs");
    }

    @Override
    public void close() {
        if (up) {
            saveLogs();
            down();
        }
    }

    static int run(List<String> command, Duration timeout) {
        return run(command, timeout, Map.of(), null);
    }

    static int run(List<String> command, Duration timeout, Map<String, String> env, Path log) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            pb.redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.appendTo(log.toFile()));
            Process p = pb.start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + " did not end within " + timeout + (log == null ? "" : "; see " + log));
            }
            return p.exitValue();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static String output(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), command + " hangs");
        return out;
    }

    /**
     * The replay CLI as {@code ./gantry up} runs it, against {@code bootstrap} with the login {@code auth}: {@code jobs}
     * real openb jobs from {@code skip} on, 10 a second, at speed-up 1000; its output appended to {@code logs/replay.log}.
     */
    static Process replay(String bootstrap, KafkaClientAuth auth, int jobs, int skip, Path summary, Duration timeout, Path logs)
            throws IOException {
        Path jar = ROOT.resolve("sac-trainer/target/sac-trainer-" + VERSION + ".jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the build (./mvnw package) first");
        }
        List<String> command = new ArrayList<>(List.of("java", "-Xmx512m", GantryProcesses.C1_ONLY,
                "-Dgantry.shared.dir=" + System.getProperty("gantry.shared.dir", ROOT.resolve("../shared").toString()),
                "-jar", jar.toString(), "replay", "--bootstrap", bootstrap, "--jobs", String.valueOf(jobs),
                "--speedup", "1000", "--exit-when-done", "--summary", summary.toString(),
                "--timeout-s", String.valueOf(timeout.toSeconds()),
                "--trace", "openb", "--skip", String.valueOf(skip), "--rate", "10"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("replay.log").toFile()));
        // As ./gantry exports it: in the environment, never on the command line.
        pb.environment().putAll(auth.environment());
        return pb.start();
    }
}
