package io.gantry.ingest.service;

/**
 * Where node metrics come from. {@code exposition} scrapes a Prometheus text exposition and computes rates
 * itself; a source over the Prometheus HTTP API ({@code /api/v1/query} with PromQL such as
 * {@code 1 - avg by (instance) (rate(node_cpu_seconds_total{mode="idle"}[1m]))}) would let Prometheus do it.
 * Called from one thread only, so an implementation may keep state between reads.
 */
public interface NodeMetricsSource {

    SourceReading read() throws SourceUnavailableException;

    /** Where it reads from, for logs and dead-letter headers. */
    String describe();
}
