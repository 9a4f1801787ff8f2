package io.gantry.ingest.service;

import java.time.Instant;

/**
 * The state of reading the source, for readiness and operators.
 *
 * @param lastSuccessAt       when the source last gave a usable read; null before the first
 * @param consecutiveFailures failed reads since then (0 while healthy)
 * @param lastError           why the last read failed; null while healthy
 */
public record IngestStatus(String source, Instant lastSuccessAt, long consecutiveFailures, String lastError,
                           int freshNodes, int staleNodes) {
}
