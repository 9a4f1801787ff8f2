package io.gantry.monitoring;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The checkout, and Debian's Prometheus binaries: skipped when missing locally, a failure under CI=true. */
final class Tools {

    static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

    private Tools() {
    }

    /** Returns {@code binary} if installed; skips the test if not, unless CI=true, where a missing tool fails. */
    static Path require(Path binary) {
        boolean installed = Files.isExecutable(binary);
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            assertTrue(installed, binary + " is missing under CI=true: .ci/run installs Debian's prometheus package");
        }
        assumeTrue(installed, binary + " not installed (apt-get install prometheus)");
        return binary;
    }

    record Result(int exitCode, String output) {
    }

    /** Runs a command in the checkout, bounded to 60 s. */
    static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError(command + " did not finish in 60 s");
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }
}
