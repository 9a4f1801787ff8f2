package io.gantry.cli;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceTimes;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The named splits of the Philly trace (issue 20's protocol): train on September 2017, choose hyper-parameters on the
 * first half of October, report on the second half, which nothing may be tuned on. A split keeps the jobs submitted in
 * its dates (UTC, the trace's timestamps as the loader parses them), in file order, and shifts their submit times so
 * the first is 0. {@code ALL} is the whole file, as before the splits existed.
 */
public enum TraceSplit {
    ALL("all", null, null),
    TRAIN("train", LocalDate.of(2017, 9, 1), LocalDate.of(2017, 10, 1)),
    VALIDATE("validate", LocalDate.of(2017, 10, 1), LocalDate.of(2017, 10, 16)),
    REPORT("report", LocalDate.of(2017, 10, 16), LocalDate.of(2017, 11, 1)),
    /** Validate and report together: the month {@code gantry adapt} replays after training on September. */
    OCTOBER("october", LocalDate.of(2017, 10, 1), LocalDate.of(2017, 11, 1));

    private final String cliName;
    private final LocalDate from;
    private final LocalDate until;

    TraceSplit(String cliName, LocalDate from, LocalDate until) {
        this.cliName = cliName;
        this.from = from;
        this.until = until;
    }

    public String cliName() {
        return cliName;
    }

    /** "2017-10-16 to 2017-10-31" (inclusive days), or "the whole trace". */
    public String dates() {
        return from == null ? "the whole trace" : from + " to " + until.minusDays(1);
    }

    public static TraceSplit byCliName(String name) {
        for (TraceSplit s : values()) {
            if (s.cliName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown split '" + name + "'; known: "
                + Arrays.stream(values()).map(TraceSplit::cliName).collect(Collectors.joining(", ")));
    }

    /**
     * The same trace holding only the jobs of this split, submit times from 0 and its origin moved to the first of
     * them (bad rows and notes kept: they describe the file). A dated split needs a trace with calendar times (Philly)
     * and must keep at least one job; either failing is an {@link IllegalArgumentException} saying so.
     */
    public Trace apply(Trace trace) {
        if (this == ALL) {
            return trace;
        }
        double[] range = range(trace);
        double lo = range[0];
        double hi = range[1];
        List<JobRequest> kept = new ArrayList<>();
        double first = Double.POSITIVE_INFINITY;
        for (JobRequest j : trace.jobs()) {
            if (j.submitTime() >= lo && j.submitTime() < hi) {
                kept.add(j);
                first = Math.min(first, j.submitTime());
            }
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--split %s (%s) holds none of the %d jobs of %s",
                    cliName, dates(), trace.jobs().size(), trace.file()));
        }
        return new Trace(trace.format(), trace.file(), TraceTimes.fromZero(kept), trace.badRows(), trace.notes(),
                trace.originEpochS() + first);
    }

    /**
     * The split's submit times on {@code trace}'s own clock, {lo, hi} (lo inclusive), for a caller that keeps the jobs
     * before it (a predictor's history); the whole trace is {−∞, +∞}.
     */
    public double[] range(Trace trace) {
        if (this == ALL) {
            return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
        }
        if (Double.isNaN(trace.originEpochS())) {
            throw new IllegalArgumentException("--split " + cliName + " selects jobs by date; the " + trace.format()
                    + " trace has no calendar dates (use --trace philly)");
        }
        return new double[] {from.atStartOfDay(ZoneOffset.UTC).toEpochSecond() - trace.originEpochS(),
                until.atStartOfDay(ZoneOffset.UTC).toEpochSecond() - trace.originEpochS()};
    }
}
