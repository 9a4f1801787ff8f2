package io.gantry.system;

import io.gantry.kafka.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./gantry up} run as a user runs it, as one process, on ports of its own and with its run directory in a
 * temporary folder: the launcher starts the broker and the services itself, from the jars the build produced (it is
 * told not to build them). Every process it starts carries {@code -Dgantry.run.dir=<run dir>}, which is how this
 * class finds the ones left behind.
 */
final class GantryLauncher implements AutoCloseable {

    static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    private static final Pattern SUBMITTED = Pattern.compile("submitted (\\d+)/");

    private final Path work;
    private final Path run;
    private final Path output;
    /** The launcher gives its five services and the studio the six ports after this one. */
    private final int portBase = FreePorts.run(GantryProcesses.SERVICES.size() + 1) - 1;
    private final int kafkaPort = FreePorts.one();
    private Process launcher;

    GantryLauncher() throws IOException {
        work = Files.createTempDirectory("gantry-launcher");
        run = work.resolve("run");
        output = work.resolve("launcher.out");
    }

    /** The jars and folders {@code ./gantry up} needs, which the reactor's package phase produces. */
    static List<Path> missingArtifacts() {
        List<Path> needed = new ArrayList<>(List.of(
                ROOT.resolve("sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar"),
                ROOT.resolve("embedded-kafka/target/embedded-kafka-0.1.0-SNAPSHOT.jar"),
                ROOT.resolve("embedded-kafka/target/lib")));
        for (String s : GantryProcesses.SERVICES) {
            needed.add(ROOT.resolve("services/" + s + "/target/quarkus-app/quarkus-run.jar"));
        }
        return needed.stream().filter(p -> !Files.exists(p)).toList();
    }

    /** Starts {@code ./gantry up ARGS}, output (stdout and stderr) to a file. */
    void up(String... args) throws IOException {
        List<Path> missing = missingArtifacts();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("./gantry up needs the packaged modules; run ./mvnw -B -DskipTests package "
                    + "first. Missing: " + missing);
        }
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("gantry").toString(), "up"));
        command.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        Map<String, String> env = pb.environment();
        env.put("GANTRY_RUN_DIR", run.toString());
        env.put("GANTRY_KAFKA_PORT", String.valueOf(kafkaPort));
        env.put("GANTRY_PORT_BASE", String.valueOf(portBase));
        env.put("GANTRY_NO_BUILD", "1");
        String shared = System.getProperty("gantry.shared.dir");
        if (shared != null) {
            env.put("GANTRY_SHARED_DIR", shared);
        }
        launcher = pb.start();
    }

    Path work() {
        return work;
    }

    /** The run directory ({@code GANTRY_RUN_DIR}): logs, pids, and the run's credentials under {@code security/}. */
    Path run() {
        return run;
    }

    String bootstrap() {
        return "localhost:" + kafkaPort;
    }

    /** Everything the launcher printed so far (the progress line's redraws included). */
    String output() throws IOException {
        return Files.exists(output) ? Files.readString(output) : "";
    }

    /** The highest "submitted N/" the progress line has shown; 0 before the first. */
    int submitted() throws IOException {
        Matcher m = SUBMITTED.matcher(output());
        int n = 0;
        while (m.find()) {
            n = Math.max(n, Integer.parseInt(m.group(1)));
        }
        return n;
    }

    /** The pid the launcher's supervisor recorded for a service (or {@code kafka-broker}), if it runs one now. */
    OptionalLong pid(String process) throws IOException {
        Path f = run.resolve("pids").resolve(process);
        try {
            String s = Files.readString(f).trim();
            return s.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(s));
        } catch (java.nio.file.NoSuchFileException e) {
            return OptionalLong.empty();
        }
    }

    int port(String service) {
        return portBase + GantryProcesses.SERVICES.indexOf(service) + 1;
    }

    boolean ready(String service) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://localhost:" + port(service) + "/q/health/ready"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** True while {@code ./gantry up} has not ended. */
    boolean running() {
        return launcher != null && launcher.isAlive();
    }

    /** Waits for the launcher to end; its exit code. */
    int awaitExit(Duration timeout) throws Exception {
        if (!launcher.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("./gantry up still running after " + timeout + "; its output ends with:\n" + tail());
        }
        return launcher.exitValue();
    }

    /** The last lines of the output, progress redraws apart, for failure messages. */
    String tail() throws IOException {
        String[] lines = output().replace("\r", "\n").split("\n");
        List<String> kept = Arrays.stream(lines).filter(l -> !l.isBlank()).toList();
        return String.join("\n", kept.subList(Math.max(0, kept.size() - 40), kept.size()));
    }

    /** The processes this launcher started that are still alive (found by their run-directory flag). */
    List<ProcessHandle> leftovers() {
        String mark = "-Dgantry.run.dir=" + run;
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> Arrays.asList(a).contains(mark)).orElse(false))
                .toList();
    }

    static String describe(List<ProcessHandle> ps) {
        return ps.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList().toString();
    }

    /** Stops the launcher if a failed test left it running (its traps stop the system), then whatever remains. */
    @Override
    public void close() throws InterruptedException {
        if (launcher != null && launcher.isAlive()) {
            launcher.destroy();
            if (!launcher.waitFor(60, TimeUnit.SECONDS)) {
                launcher.destroyForcibly();
            }
        }
        leftovers().forEach(ProcessHandle::destroyForcibly);
    }
}
