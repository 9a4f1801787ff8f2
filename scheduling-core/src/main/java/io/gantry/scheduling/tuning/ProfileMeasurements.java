package io.gantry.scheduling.tuning;

import io.gantry.scheduling.trace.CsvTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The raw rows of one application's measured profile ({@code app-profiles/<app>/}), as the models are fitted
 * from them: step and sync times per (nodes, replicas, per-GPU batch) from {@code placements.csv} and
 * {@code scalability.csv}, and per validated total batch the per-epoch rows of {@code validation-<batch>.csv}.
 */
public record ProfileMeasurements(String app, List<StepSample> steps, NavigableMap<Integer, List<EpochRow>> validation) {

    /** One measured iteration: {@code stepTime} includes {@code syncTime} (seconds). */
    public record StepSample(int nodes, int replicas, double localBsz, double stepTime, double syncTime) {
    }

    /** One epoch of a validation run; {@code progress} is statistical progress in initial-batch iterations. */
    public record EpochRow(double progress, double iteration, double metric, double gradSqr, double gradVar) {
    }

    public ProfileMeasurements {
        steps = List.copyOf(steps);
        validation = Collections.unmodifiableNavigableMap(new TreeMap<>(validation));
    }

    public static ProfileMeasurements load(Path appDir) {
        List<StepSample> steps = new ArrayList<>();
        for (CsvTable.Row r : CsvTable.read(appDir.resolve("placements.csv"), "placement", "local_bsz", "step_time", "sync_time")) {
            String placement = r.get("placement");
            steps.add(new StepSample(placement.length(), placement.chars().map(c -> c - '0').sum(), r.number("local_bsz"),
                    r.number("step_time"), r.number("sync_time")));
        }
        for (CsvTable.Row r : CsvTable.read(appDir.resolve("scalability.csv"), "num_nodes", "num_replicas", "local_bsz",
                "step_time", "sync_time")) {
            steps.add(new StepSample((int) r.number("num_nodes"), (int) r.number("num_replicas"), r.number("local_bsz"),
                    r.number("step_time"), r.number("sync_time")));
        }
        TreeMap<Integer, List<EpochRow>> validation = new TreeMap<>();
        try (Stream<Path> files = Files.list(appDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("validation-\\d+\\.csv")).toList()) {
                int batch = Integer.parseInt(f.getFileName().toString().replaceAll("\\D", ""));
                List<EpochRow> rows = new ArrayList<>();
                for (CsvTable.Row r : CsvTable.read(f, "progress", "iteration", "metric", "grad_sqr", "grad_var")) {
                    rows.add(new EpochRow(r.number("progress"), r.number("iteration"), r.number("metric"),
                            r.number("grad_sqr"), r.number("grad_var")));
                }
                validation.put(batch, List.copyOf(rows));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + appDir, e);
        }
        if (validation.isEmpty() || steps.isEmpty()) {
            throw new IllegalArgumentException(appDir + " needs placements.csv and at least one validation-<batch>.csv");
        }
        return new ProfileMeasurements(appDir.getFileName().toString(), steps, validation);
    }

    /** The smallest measured per-GPU batch (Pollux's {@code min_local_bsz}). */
    public double minLocalBsz() {
        return steps.stream().mapToDouble(StepSample::localBsz).min().orElseThrow();
    }
}
