package io.gantry.ingest.service;

/**
 * Source data that could not be used: a line that does not parse, or a node whose series do not make a valid
 * {@code NodeMetrics}. Dead-lettered with {@code reason}, keyed by {@code subject} (the node, or {@code line}).
 *
 * @param kind bounded label for metrics: {@code line} or {@code node}
 */
public record Rejection(String kind, String subject, String reason, String evidence) {
}
