package io.gantry.scheduling.tuning;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU and memory requests right-sized from what similar past jobs used: the {@code quantile} of their peak ÷ request
 * ratios, times {@code headroom}, times this job's request — never below {@code floor} (or the request, if smaller)
 * and never above the request. "Similar" is a caller-chosen group key (e.g. the request shape, or user + model);
 * a group with fewer than {@code minSamples} finished jobs falls back to every job's history, and with fewer than
 * that in total nothing is changed.
 */
public final class ResourceRightSizer {

    public record Settings(double quantile, double headroom, long cpuFloorMilli, long memFloorMib, int minSamples) {
        public static final Settings DEFAULT = new Settings(0.99, 1.15, 500, 1024, 20);

        public Settings {
            if (!(quantile > 0 && quantile <= 1) || headroom < 1 || cpuFloorMilli < 0 || memFloorMib < 0 || minSamples < 1) {
                throw new IllegalArgumentException("quantile in (0, 1], headroom ≥ 1, floors ≥ 0, minSamples ≥ 1");
            }
        }
    }

    /** A right-sized request and the evidence behind it ({@code samples} = 0: unchanged, too little history). */
    public record Sizing(long cpuMilli, long memoryMib, int samples, double cpuRatio, double memRatio, String basis) {
    }

    private final Settings settings;
    private final Map<String, List<double[]>> byGroup = new HashMap<>();
    private final List<double[]> all = new ArrayList<>();

    public ResourceRightSizer(Settings settings) {
        this.settings = settings;
    }

    public Settings settings() {
        return settings;
    }

    /** A finished job of {@code group} peaked at these fractions of its CPU and memory requests. */
    public void observe(String group, double cpuPeakRatio, double memPeakRatio) {
        double[] r = {cpuPeakRatio, memPeakRatio};
        byGroup.computeIfAbsent(group, k -> new ArrayList<>()).add(r);
        all.add(r);
    }

    public Sizing size(String group, long cpuMilli, long memoryMib) {
        List<double[]> history = byGroup.getOrDefault(group, List.of());
        String basis = "similar jobs (" + group + ")";
        if (history.size() < settings.minSamples()) {
            history = all;
            basis = "all past jobs (too few like it)";
        }
        if (history.size() < settings.minSamples()) {
            return new Sizing(cpuMilli, memoryMib, 0, 1, 1, "too little history");
        }
        double cpu = Math.min(1, quantile(history, 0) * settings.headroom());
        double mem = Math.min(1, quantile(history, 1) * settings.headroom());
        long cpuOut = Math.min(cpuMilli, Math.max(Math.min(cpuMilli, settings.cpuFloorMilli()), (long) Math.ceil(cpuMilli * cpu)));
        long memOut = Math.min(memoryMib, Math.max(Math.min(memoryMib, settings.memFloorMib()), (long) Math.ceil(memoryMib * mem)));
        return new Sizing(cpuOut, memOut, history.size(), cpu, mem, basis);
    }

    private double quantile(List<double[]> history, int which) {
        List<Double> v = new ArrayList<>(history.size());
        for (double[] h : history) {
            v.add(h[which]);
        }
        Collections.sort(v);
        int rank = (int) Math.ceil(settings.quantile() * v.size());
        return v.get(Math.max(0, Math.min(v.size() - 1, rank - 1)));
    }
}
