package io.gantry.ingest.mapping;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.ingest.service.NodeReading;
import java.time.Instant;

/** The one place metrics-ingest turns what a source read into {@code NodeMetrics} events. */
public final class NodeMetricsEvents {

    private NodeMetricsEvents() {
    }

    /** A node as just read (schedulable, not stale), from source {@code source}; not yet validated. */
    public static NodeMetrics fresh(NodeReading r, Instant now, String source) {
        return new NodeMetrics(Events.newId(), GantryEvent.SCHEMA_VERSION, now, r.node(), r.capacity(), r.allocated(),
                r.cpuUtilisation(), r.gpuUtilisation(), r.memoryUtilisation(), r.runningPods(), true, false, source);
    }

    /** The last good values of a node the source no longer reports, published again at {@code now} marked stale. */
    public static NodeMetrics stale(NodeMetrics last, Instant now) {
        return new NodeMetrics(Events.newId(), GantryEvent.SCHEMA_VERSION, now, last.node(), last.capacity(),
                last.allocated(), last.cpuUtilisation(), last.gpuUtilisation(), last.memoryUtilisation(),
                last.runningPods(), last.schedulable(), true, last.source());
    }
}
