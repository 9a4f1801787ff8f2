package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import java.nio.file.Path;
import java.util.List;

/**
 * Jobs read from one trace file, with everything the loader could not use.
 *
 * @param jobs    in file order; submit times in seconds from the trace's first submission
 * @param badRows rows that could not be parsed
 * @param notes   rows deliberately left out and why (for example pods that never ran), with counts
 * @param originEpochS the calendar time (UTC epoch seconds) of submit time 0, so jobs can be selected by date
 *                     ({@code TraceSplit}); NaN for a format without a calendar (openb's times are relative)
 */
public record Trace(String format, Path file, List<JobRequest> jobs, List<BadRow> badRows, List<String> notes,
                    double originEpochS) {
    public Trace {
        jobs = List.copyOf(jobs);
        badRows = List.copyOf(badRows);
        notes = List.copyOf(notes);
    }

    /** A trace whose times have no calendar date. */
    public Trace(String format, Path file, List<JobRequest> jobs, List<BadRow> badRows, List<String> notes) {
        this(format, file, jobs, badRows, notes, Double.NaN);
    }
}
