package io.gantry.ingest.service;

import io.gantry.events.ResourceAmounts;

/**
 * What a source read about one node, in Gantry's units, before it becomes a {@code NodeMetrics}. A utilisation
 * the source could not measure is null.
 *
 * @param evidence the source's raw data for this node (series lines), kept with a dead letter when it is invalid
 */
public record NodeReading(String node, ResourceAmounts capacity, ResourceAmounts allocated, Double cpuUtilisation,
                          Double gpuUtilisation, Double memoryUtilisation, Integer runningPods, String evidence) {
}
