package io.gantry.ingest.service;

import io.gantry.events.NodeMetrics;

/** Where the ingestor puts what it read; the messaging layer writes to Kafka. */
public interface IngestSink {

    void publish(NodeMetrics metrics);

    /** Keeps source data that could not be turned into a valid NodeMetrics, with the reason. */
    void deadLetter(Rejection rejection, String sourceDescription);
}
