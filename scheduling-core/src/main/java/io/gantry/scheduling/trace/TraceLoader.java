package io.gantry.scheduling.trace;

import java.nio.file.Path;

/** Reads one trace format. {@code shape} is the node type replayed on (gang splitting and missing CPU/memory depend on it). */
@FunctionalInterface
public interface TraceLoader {
    Trace load(Path file, NodeShape shape);
}
