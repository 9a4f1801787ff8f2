package io.gantry.scheduling.tuning;

import java.util.List;
import java.util.Locale;

/**
 * CPU and memory requests of a repeat run of a model, from what its earlier runs measured ({@link RunnerProfile.Run}:
 * peak RSS, CPU-seconds over wall seconds). Memory: the {@code quantile} of the peaks times {@code headroom}, and never
 * below the largest peak a run needed; CPU likewise from the cores each run used on average. With fewer than
 * {@code minRuns} runs the request stays as submitted. The result is never below {@code floor}s, so a request is not
 * cut to nothing by runs that measured almost nothing.
 */
public final class UsageRightSizer {

    private static final double MIB = 1024.0 * 1024.0;

    public record Settings(double quantile, double headroom, int minRuns, long cpuFloorMilli, long memFloorMib) {
        /** p95 + 20 %: within 1.5× of the measured peak, above any single run's. */
        public static final Settings DEFAULT = new Settings(0.95, 1.2, 3, 100, 64);

        public Settings {
            if (!(quantile > 0 && quantile <= 1) || headroom < 1 || minRuns < 1 || cpuFloorMilli < 0 || memFloorMib < 0) {
                throw new IllegalArgumentException("quantile in (0, 1], headroom ≥ 1, minRuns ≥ 1, floors ≥ 0");
            }
        }
    }

    /**
     * @param runs  runs the sizing rests on (0: unchanged)
     * @param basis in words, for the change's reason
     */
    public record Sizing(long cpuMilli, long memoryMib, int runs, String basis) {
    }

    private final Settings settings;

    public UsageRightSizer(Settings settings) {
        this.settings = settings;
    }

    public Settings settings() {
        return settings;
    }

    public Sizing size(List<RunnerProfile.Run> runs, long cpuMilli, long memoryMib) {
        List<RunnerProfile.Run> measured = runs.stream().filter(r -> r.peakRssBytes() > 0 && r.wallSeconds() > 0).toList();
        if (measured.size() < settings.minRuns()) {
            return new Sizing(cpuMilli, memoryMib, 0, String.format(Locale.ROOT,
                    "%d measured run(s) of this model, fewer than the %d right-sizing needs", measured.size(),
                    settings.minRuns()));
        }
        List<Double> peaks = measured.stream().map(r -> (double) r.peakRssBytes()).toList();
        double maxPeak = peaks.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double memBytes = Math.max(maxPeak, RunnerProfile.quantile(peaks, settings.quantile()) * settings.headroom());
        long mem = Math.max(settings.memFloorMib(), (long) Math.ceil(memBytes / MIB));
        List<Double> cores = measured.stream().map(r -> r.cpuSeconds() / r.wallSeconds()).toList();
        double maxCores = cores.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double cpu = Math.max(maxCores, RunnerProfile.quantile(cores, settings.quantile()) * settings.headroom());
        long cpuOut = Math.max(settings.cpuFloorMilli(), (long) Math.ceil(cpu * 1000));
        return new Sizing(cpuOut, mem, measured.size(), String.format(Locale.ROOT,
                "p%.0f of %d runs × %.2f headroom, at least the largest: peak RSS %.0f MiB (largest %.0f MiB), "
                        + "CPU %.2f cores (largest %.2f)", 100 * settings.quantile(), measured.size(),
                settings.headroom(), RunnerProfile.quantile(peaks, settings.quantile()) / MIB, maxPeak / MIB,
                RunnerProfile.quantile(cores, settings.quantile()), maxCores));
    }
}
