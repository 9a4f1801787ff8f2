package io.gantry.ingest.config;

import io.gantry.ingest.service.NodeMetricsSource;
import io.gantry.ingest.service.exposition.ExpositionSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Picks the {@link NodeMetricsSource} named by {@code gantry.ingest.source}. */
@ApplicationScoped
public class SourceProducer {

    @Produces
    @ApplicationScoped
    NodeMetricsSource source(IngestConfig config) {
        return switch (config.source()) {
            case "exposition" -> new ExpositionSource(config.sourceUrl(), config.timeout());
            default -> throw new IllegalArgumentException("gantry.ingest.source '" + config.source()
                    + "' is not supported; supported: exposition");
        };
    }
}
