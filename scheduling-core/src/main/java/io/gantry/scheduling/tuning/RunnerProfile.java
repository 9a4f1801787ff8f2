package io.gantry.scheduling.tuning;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What real training runs measured, per model ({@code modelKey}: a fingerprint of graph and dataset): one
 * {@link Run} per finished run (optimiser, the target it trained to, batch size, learning rate, epochs, the epoch at
 * which that target was met, wall time, samples/s, peak RSS, CPU-seconds). Filled from the job runner's results as
 * they arrive, and seeded from a built-in profile measured on this machine ({@code ./gantry bench tuner-profile}, CSV
 * in the same columns). A run is remembered once (its id); at most {@link #MAX_RUNS_PER_MODEL} newest runs per model
 * are kept. Thread-safe.
 */
public final class RunnerProfile {

    /** Runs kept per model: enough for a p95 and a few batch sizes, bounded whatever the traffic. */
    public static final int MAX_RUNS_PER_MODEL = 200;

    /** CSV header of {@link #writeCsv} and {@link #readCsv}. */
    public static final String CSV_HEADER = "id,modelKey,dataset,optimizer,targetMetric,targetValue,batchSize,"
            + "learningRate,epochsRun,targetReachedEpoch,wallSeconds,samplesPerSecond,peakRssBytes,cpuSeconds";

    /**
     * The header of profiles written before runs named their target: still read, every run with an unknown target
     * (so counted for right-sizing but never for epochs to a target).
     */
    static final String CSV_HEADER_WITHOUT_TARGET = "id,modelKey,dataset,optimizer,batchSize,learningRate,epochsRun,"
            + "targetReachedEpoch,wallSeconds,samplesPerSecond,peakRssBytes,cpuSeconds";

    /**
     * One measured run.
     *
     * @param id                 unique per run (job id and attempt): a run seen twice is kept once
     * @param optimizer          the optimiser; empty when unknown
     * @param targetMetric       the metric of the target the run trained to; empty when unknown or none
     * @param targetValue        the value of that target; null when unknown or none
     * @param targetReachedEpoch the first epoch at whose end that target was met; null if never (or no target)
     * @param wallSeconds        wall time of the run (start to result)
     */
    public record Run(String id, String modelKey, String dataset, String optimizer, String targetMetric,
                      Double targetValue, int batchSize, double learningRate, int epochsRun, Integer targetReachedEpoch,
                      double wallSeconds, double samplesPerSecond, long peakRssBytes, double cpuSeconds) {

        public Run {
            optimizer = optimizer == null ? "" : optimizer;
            targetMetric = targetMetric == null ? "" : targetMetric;
        }

        /** Whether this run trained with {@code optimizer} to exactly this target: only then do its epochs count. */
        public boolean trainedLike(String optimizer, String targetMetric, Double targetValue) {
            return !this.optimizer.isEmpty() && this.optimizer.equals(optimizer) && !this.targetMetric.isEmpty()
                    && this.targetMetric.equals(targetMetric) && this.targetValue != null && targetValue != null
                    && Math.abs(this.targetValue - targetValue) <= 1e-9;
        }

        /** Measured wall seconds per epoch (training and evaluation); NaN when the run did no epoch. */
        public double secondsPerEpoch() {
            return epochsRun > 0 ? wallSeconds / epochsRun : Double.NaN;
        }

        String csv() {
            return String.join(",", id, modelKey, dataset, optimizer, targetMetric,
                    targetValue == null ? "" : targetValue.toString(), Integer.toString(batchSize),
                    Double.toString(learningRate), Integer.toString(epochsRun),
                    targetReachedEpoch == null ? "" : targetReachedEpoch.toString(), Double.toString(wallSeconds),
                    Double.toString(samplesPerSecond), Long.toString(peakRssBytes), Double.toString(cpuSeconds));
        }

        /** A CSV line; {@code withTarget} false: of the older header, without the two target columns. */
        static Run parse(String line, String where, boolean withTarget) {
            String[] f = line.split(",", -1);
            int columns = withTarget ? 14 : 12;
            if (f.length != columns) {
                throw new IllegalArgumentException(where + ": expected " + columns + " columns ("
                        + (withTarget ? CSV_HEADER : CSV_HEADER_WITHOUT_TARGET) + "), got " + f.length);
            }
            try {
                String metric = withTarget ? f[4] : "";
                Double value = withTarget && !f[5].isEmpty() ? Double.valueOf(f[5]) : null;
                int o = withTarget ? 6 : 4;
                return new Run(f[0], f[1], f[2], f[3], metric, value, Integer.parseInt(f[o]),
                        Double.parseDouble(f[o + 1]), Integer.parseInt(f[o + 2]),
                        f[o + 3].isEmpty() ? null : Integer.valueOf(f[o + 3]), Double.parseDouble(f[o + 4]),
                        Double.parseDouble(f[o + 5]), Long.parseLong(f[o + 6]), Double.parseDouble(f[o + 7]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
        }
    }

    private final Map<String, List<Run>> byModel = new HashMap<>();
    private final Set<String> ids = new HashSet<>();

    /** Adds a run; false when a run with its id is already known. */
    public synchronized boolean add(Run run) {
        if (!ids.add(run.id())) {
            return false;
        }
        List<Run> runs = byModel.computeIfAbsent(run.modelKey(), k -> new ArrayList<>());
        runs.add(run);
        if (runs.size() > MAX_RUNS_PER_MODEL) {
            ids.remove(runs.remove(0).id());
        }
        return true;
    }

    /** The runs of {@code modelKey}, oldest first. */
    public synchronized List<Run> runs(String modelKey) {
        return List.copyOf(byModel.getOrDefault(modelKey, List.of()));
    }

    public synchronized Set<String> models() {
        return Set.copyOf(byModel.keySet());
    }

    public synchronized int size() {
        return ids.size();
    }

    /**
     * Reads a profile CSV ({@link #CSV_HEADER}, or the older header without the target columns; blank lines and
     * {@code #} comments skipped).
     */
    public static List<Run> readCsv(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read runner profile " + file, e);
        }
        List<Run> out = new ArrayList<>();
        boolean header = false;
        boolean withTarget = true;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            if (!header) {
                if (!l.equals(CSV_HEADER) && !l.equals(CSV_HEADER_WITHOUT_TARGET)) {
                    throw new IllegalArgumentException(file + ": first line must be " + CSV_HEADER);
                }
                header = true;
                withTarget = l.equals(CSV_HEADER);
                continue;
            }
            out.add(Run.parse(l, file + ":" + (i + 1), withTarget));
        }
        return out;
    }

    /** Writes {@code runs} as a profile CSV, with {@code comment} lines first. */
    public static void writeCsv(Path file, List<String> comment, List<Run> runs) {
        List<String> lines = new ArrayList<>();
        comment.forEach(c -> lines.add("# " + c));
        lines.add(CSV_HEADER);
        runs.forEach(r -> lines.add(r.csv()));
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The {@code q}-quantile (nearest rank) of {@code values}; NaN for none. */
    static double quantile(List<Double> values, double q) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        int rank = (int) Math.ceil(q * v.size());
        return v.get(Math.max(0, Math.min(v.size() - 1, rank - 1)));
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
