package io.gantry.system;

import io.gantry.kafka.FreePorts;
import io.gantry.service.support.security.TestTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The whole system as a user runs it: the broker and each service as its own operating-system process, from
 * the artifacts the build produced (the broker's jars, each service's {@code quarkus-run.jar}).
 */
public final class GantryProcesses implements AutoCloseable {

    public static final List<String> SERVICES =
            List.of("metrics-ingest", "job-tuner", "priority-accounting", "sac-scheduler", "pod-dispatcher");

    /**
     * The JIT flag of {@code ./gantry up}'s broker and services: on two cores, C2's compiling at start-up costs more
     * than its faster code gains in these I/O-bound processes (measured: half the start-up CPU of broker plus five
     * services). Also for the other processes the system tests start.
     */
    public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    private final Path root = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    private final Path work;
    private final List<Process> processes = new ArrayList<>();
    private final Map<String, Process> serviceProcesses = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> serviceEnv = new LinkedHashMap<>();
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final int kafkaPort = FreePorts.one();

    public GantryProcesses() throws IOException {
        work = Files.createTempDirectory("gantry-system");
    }

    public String bootstrap() {
        return "localhost:" + kafkaPort;
    }

    public int port(String service) {
        return ports.get(service);
    }

    public Path logs() {
        return work;
    }

    public void startBroker() throws Exception {
        Path kafka = root.resolve("embedded-kafka/target");
        Path log = work.resolve("kafka.log");
        start(log, "java", "-Xmx320m", "-XX:+UseSerialGC", C1_ONLY, "-cp",
                kafka.resolve("embedded-kafka-0.1.0-SNAPSHOT.jar") + ":" + kafka.resolve("lib") + "/*",
                "io.gantry.kafka.EmbeddedKafkaBroker", "--dir", work.resolve("kafka").toString(),
                "--port", String.valueOf(kafkaPort), "--partitions", "3");
        await(Duration.ofSeconds(60), "the broker", () -> Files.readString(log).contains("READY"));
    }

    /** Starts every service with the given extra environment (e.g. the simulated cluster's size and speed). */
    public void startServices(Map<String, String> env) throws Exception {
        startServices(SERVICES, env);
    }

    /** Starts {@code services} side by side (with the broker already up), then waits until each is ready. */
    public void startServices(List<String> services, Map<String, String> env) throws Exception {
        for (String s : services) {
            ports.put(s, FreePorts.one());
        }
        for (String s : services) {
            Map<String, String> e = new LinkedHashMap<>(env);
            e.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap());
            e.put("GANTRY_DATA_DIR", work.resolve("data").toString());
            if (services.contains("pod-dispatcher")) {
                e.put("GANTRY_INGEST_SOURCE_URL", "http://localhost:" + port("pod-dispatcher") + "/simulated-cluster/metrics");
            }
            serviceEnv.put(s, e);
            startService(s);
        }
        for (String s : services) {
            awaitReady(s);
        }
    }

    /** Starts one service alone (with the broker already up), as {@link #startServices} would start it. */
    public void startService(String s, Map<String, String> env) throws Exception {
        ports.put(s, FreePorts.one());
        Map<String, String> e = new LinkedHashMap<>(env);
        e.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap());
        e.put("GANTRY_DATA_DIR", work.resolve("data").toString());
        serviceEnv.put(s, e);
        startService(s);
        awaitReady(s);
    }

    /** Stops a service as an operator would (SIGTERM, shutdown hooks run), then starts it again with the same settings. */
    public void stopAndRestart(String s) throws Exception {
        Process p = serviceProcesses.get(s);
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError(s + " did not stop within 30 s of SIGTERM");
        }
        startService(s);
        awaitReady(s);
    }

    /** The operating-system process id of a running service, to tell a real restart from a reused process. */
    public long pid(String s) {
        return serviceProcesses.get(s).pid();
    }

    private void startService(String s) throws IOException {
        Path jar = root.resolve("services/" + s + "/target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the build (./mvnw install) first");
        }
        // Append: a restarted service's log follows the first run's.
        // Every service trusts the test key; the studio reads the others with an operator's token, as under ./gantry up.
        Map<String, String> env = new LinkedHashMap<>(serviceEnv.get(s));
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", TestTokens.publicKeyFile(work).toString());
        env.put("GANTRY_STUDIO_SERVICE_TOKEN", TestTokens.operator());
        serviceProcesses.put(s, start(work.resolve(s + ".log"), env, "java", "-Xmx192m",
                "-XX:+UseSerialGC", C1_ONLY, "-Dquarkus.http.port=" + port(s), "-jar", jar.toString()));
    }

    private void awaitReady(String s) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        await(Duration.ofSeconds(120), s + " readiness", () -> http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port(s) + "/q/health/ready")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    /** Kills a service at once, as a crash would (no shutdown hooks), and starts it again. */
    void crashAndRestart(String s) throws Exception {
        Process p = serviceProcesses.get(s);
        p.destroyForcibly();
        p.waitFor(20, TimeUnit.SECONDS);
        startService(s);
        awaitReady(s);
    }

    /** {@code GET path} on a service, as an admin (who may also read everything). */
    public String get(String service, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port(service) + path))
                        .header("Authorization", "Bearer " + TestTokens.admin()).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private void start(Path log, String... command) throws IOException {
        start(log, Map.of(), command);
    }

    private Process start(Path log, Map<String, String> env, String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    public interface Check {
        boolean ok() throws Exception;
    }

    public static void await(Duration timeout, String what, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(what + " not ready within " + timeout, last);
    }

    @Override
    public void close() throws InterruptedException {
        // Services first, broker last, each given time for a clean stop.
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
