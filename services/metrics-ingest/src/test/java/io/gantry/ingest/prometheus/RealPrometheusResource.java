package io.gantry.ingest.prometheus;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Starts {@link RealPrometheus} before the app and points metrics-ingest's {@code prometheus} source at it. Without
 * the binaries it fails under {@code CI=true} (the CI installs them: a missing binary must not pass silently) and
 * otherwise leaves {@link #running()} null so the tests skip.
 */
public class RealPrometheusResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RealPrometheus running;

    public static RealPrometheus running() {
        return running;
    }

    @Override
    public Map<String, String> start() {
        if (!RealPrometheus.installed()) {
            if (RealPrometheus.underCi()) {
                throw new IllegalStateException("CI=true but " + RealPrometheus.PROMETHEUS + " or "
                        + RealPrometheus.NODE_EXPORTER + " is missing: .ci/run installs them");
            }
            return Map.of("gantry.ingest.source", "prometheus");
        }
        try {
            running = new RealPrometheus().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return Map.of("gantry.ingest.source", "prometheus",
                "gantry.ingest.prometheus.url", running.url().toString(),
                "gantry.ingest.source-name", "prometheus");
    }

    @Override
    public void stop() {
        RealPrometheus p = running;
        running = null;
        if (p != null) {
            try {
                p.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
