package io.gantry.ingest.service.exposition;

import java.util.List;

/** The samples of an exposition, and the lines that could not be read (each with its number and why). */
public record ParsedExposition(List<Sample> samples, List<LineError> errors) {

    public record LineError(int line, String raw, String reason) {
    }
}
