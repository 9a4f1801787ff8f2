package io.gantry.ingest.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;

/** How metrics-ingest reads the cluster. Environment variables override, e.g. {@code GANTRY_INGEST_SOURCE_URL}. */
@ConfigMapping(prefix = "gantry.ingest")
public interface IngestConfig {

    /** Time between two reads of the source while it answers. */
    @WithDefault("1s")
    Duration interval();

    /**
     * Which {@code NodeMetricsSource} reads the cluster: {@code exposition} scrapes a Prometheus text exposition
     * (the simulated cluster's, or any exporter's). A {@code prometheus} source (PromQL over the HTTP API) is
     * meant to be added as another implementation.
     */
    @WithDefault("exposition")
    String source();

    /** What the exposition source scrapes. */
    @WithDefault("http://localhost:8085/simulated-cluster/metrics")
    URI sourceUrl();

    /** Written into every NodeMetrics' {@code source} field. */
    @WithDefault("simulated-cluster")
    String sourceName();

    /** How long one read may take before it counts as a failure. */
    @WithDefault("2s")
    Duration timeout();

    /** Upper bound of the retry delay, which doubles from {@link #interval()} with each failed read. */
    @WithDefault("5s")
    Duration maxBackoff();

    /** Readiness is DOWN while the last successful read is older than this (or there was none yet). */
    @WithDefault("10s")
    Duration readinessMaxAge();

    /** A node missing from every read for this long is no longer published (as stale); it was removed. */
    @WithDefault("5m")
    Duration forgetMissingAfter();
}
