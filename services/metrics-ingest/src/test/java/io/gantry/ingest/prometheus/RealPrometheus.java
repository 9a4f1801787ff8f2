package io.gantry.ingest.prometheus;

import io.gantry.kafka.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code prometheus} and {@code prometheus-node-exporter} as child processes on free loopback ports, with a
 * temporary configuration (1 s scrapes of the node-exporter) and data directory. Prometheus can be stopped and
 * started again on the same port and data, to make an outage. Every process is stopped by {@link #close()}.
 */
public final class RealPrometheus implements AutoCloseable {

    public static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    public static final Path NODE_EXPORTER = Path.of("/usr/bin/prometheus-node-exporter");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    private final int prometheusPort;
    private final int exporterPort;
    private Process exporter;
    private Process prometheus;

    /** Whether the binaries are installed; when they are not, a test skips locally and fails under CI=true. */
    public static boolean installed() {
        return Files.isExecutable(PROMETHEUS) && Files.isExecutable(NODE_EXPORTER);
    }

    public static boolean underCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    public RealPrometheus() throws IOException {
        dir = Files.createTempDirectory("gantry-prometheus-test");
        prometheusPort = FreePorts.one();
        exporterPort = FreePorts.one();
        Files.writeString(dir.resolve("prometheus.yml"), """
                # Written by RealPrometheus for one test run.
                global:
                  scrape_interval: 1s
                  scrape_timeout: 900ms
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: node-exporter
                    static_configs:
                      - targets: ["127.0.0.1:%d"]
                """.formatted(exporterPort));
    }

    /** Starts the node-exporter (CPU, memory and time collectors only: cheap on 2 shared cores) and Prometheus. */
    public RealPrometheus start() throws IOException, InterruptedException {
        // A test JVM that ends without close() (Ctrl-C, a timeout) must not leave the processes behind.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Process p : new Process[] {prometheus, exporter}) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
        }, "real-prometheus-cleanup"));
        exporter = new ProcessBuilder(NODE_EXPORTER.toString(), "--web.listen-address=127.0.0.1:" + exporterPort,
                "--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.time")
                .redirectErrorStream(true).redirectOutput(dir.resolve("node-exporter.log").toFile()).start();
        awaitHttp(URI.create("http://127.0.0.1:" + exporterPort + "/metrics"), exporter, "node-exporter.log");
        startPrometheus();
        return this;
    }

    public void startPrometheus() throws IOException, InterruptedException {
        prometheus = new ProcessBuilder(PROMETHEUS.toString(),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + prometheusPort,
                "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("prometheus.log").toFile())).start();
        awaitHttp(url().resolve("/-/ready"), prometheus, "prometheus.log");
    }

    /** Stops Prometheus (SIGTERM, then SIGKILL after 10 s), leaving the node-exporter running. */
    public void stopPrometheus() throws InterruptedException {
        stop(prometheus);
        prometheus = null;
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + prometheusPort);
    }

    /** How node-exporter's series name this machine once the {@code :port} is dropped. */
    public String nodeName() {
        return "127.0.0.1";
    }

    public String log(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            return "(no " + name + ": " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop(prometheus);
        stop(exporter);
    }

    private static void stop(Process p) throws InterruptedException {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private void awaitHttp(URI uri, Process process, String logName) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(uri + ": process exited with " + process.exitValue() + "\n"
                        + log(logName));
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(uri + " not ready after " + START_TIMEOUT + "\n" + log(logName));
    }

    /** The machine's own memory figures, kB, for comparison. */
    public static List<Long> memTotalAndAvailableKb() throws IOException {
        long total = -1;
        long available = -1;
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            String[] f = line.split("\\s+");
            if (f[0].equals("MemTotal:")) {
                total = Long.parseLong(f[1]);
            } else if (f[0].equals("MemAvailable:")) {
                available = Long.parseLong(f[1]);
            }
        }
        if (total <= 0 || available < 0) {
            throw new IllegalStateException("/proc/meminfo has no MemTotal/MemAvailable");
        }
        return List.of(total, available);
    }
}
