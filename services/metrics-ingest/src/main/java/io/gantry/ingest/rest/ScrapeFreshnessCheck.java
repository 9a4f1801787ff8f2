package io.gantry.ingest.rest;

import io.gantry.ingest.config.IngestConfig;
import io.gantry.ingest.service.IngestStatus;
import io.gantry.ingest.service.MetricsIngestor;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while the metrics it publishes are fresh: DOWN before the first good read and during an outage. */
@Readiness
@ApplicationScoped
public class ScrapeFreshnessCheck implements HealthCheck {

    private final MetricsIngestor ingestor;
    private final IngestConfig config;

    public ScrapeFreshnessCheck(MetricsIngestor ingestor, IngestConfig config) {
        this.ingestor = ingestor;
        this.config = config;
    }

    @Override
    public HealthCheckResponse call() {
        IngestStatus s = ingestor.status();
        boolean fresh = s.lastSuccessAt() != null
                && Duration.between(s.lastSuccessAt(), Instant.now()).compareTo(config.readinessMaxAge()) <= 0;
        HealthCheckResponseBuilder b = HealthCheckResponse.named("node-metrics-source").status(fresh)
                .withData("source", s.source())
                .withData("lastSuccessAt", String.valueOf(s.lastSuccessAt()))
                .withData("consecutiveFailures", s.consecutiveFailures())
                .withData("freshNodes", s.freshNodes())
                .withData("staleNodes", s.staleNodes());
        if (s.lastError() != null) {
            b.withData("lastError", s.lastError());
        }
        return b.build();
    }
}
