package io.gantry.ingest.service;

import java.util.List;

/** One successful read of the source: the nodes it described, and what it could not use. */
public record SourceReading(List<NodeReading> nodes, List<Rejection> rejections) {
}
