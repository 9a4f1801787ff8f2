package io.gantry.cli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@code summary.json} (exactly the keys agreed in issue 3, checked by
 * {@code ../shared/checks/check-summary.py bench DIR}) and {@code summary.csv} with the same columns.
 * {@code load} is the target ρ, or the measured ρ of the recorded arrivals when no target was given. The restart
 * keys ({@code restarts_per_job} ... {@code restart_s}) are {@link io.gantry.scheduling.sim.RestartMetrics}.
 */
final class SummaryWriter {

    static final String[] COLUMNS = {"trace", "trace_file", "load", "seed", "policy", "jobs", "unfit", "bad_rows",
            "avg_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s", "avg_queue_s", "avg_slowdown", "makespan_s",
            "gpu_alloc_ratio", "node_cv", "jain_fairness", "jain_while_waiting", "max_ftf_rho", "wall_s",
            "tuner", "gpu_hours", "cpu_core_hours", "mem_gib_hours", "oom_kills", "target_reached_ratio", "avg_final_metric",
            "preemption_cost_s", "restarts_per_job", "resizes_per_job", "restarted_share", "restart_s"};

    private SummaryWriter() {
    }

    static Object[] values(BenchRow r) {
        return new Object[] {r.trace(), r.traceFile(), r.load(), r.seed(), r.policy(), r.jobs(), r.unfit(), r.badRows(),
                r.m().avgJctS(), r.m().p50JctS(), r.m().p95JctS(), r.m().p99JctS(), r.m().avgQueueS(), r.m().avgSlowdown(),
                r.m().makespanS(), r.m().gpuAllocRatio(), r.m().nodeCv(), r.m().jainFairness(), r.m().jainWhileWaiting(),
                r.m().maxFtfRho(), r.wallS(),
                r.tuner().mode(), r.tuner().gpuHours(), r.tuner().cpuCoreHours(), r.tuner().memGibHours(),
                r.tuner().oomKills(), r.tuner().targetReachedRatio(), r.tuner().avgFinalMetric(), r.preemptionCostS(),
                r.m().restarts().perJob(), r.m().restarts().resizesPerJob(), r.m().restarts().restartedShare(),
                r.m().restarts().totalS()};
    }

    static void write(Path dir, List<BenchRow> rows) throws IOException {
        StringBuilder json = new StringBuilder("{\"runs\":[\n");
        StringBuilder csv = new StringBuilder(String.join(",", COLUMNS)).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            Object[] v = values(rows.get(i));
            json.append("  {").append(jsonFields(rows.get(i)));
            for (int c = 0; c < COLUMNS.length; c++) {
                csv.append(c == 0 ? "" : ",").append(csvValue(v[c]));
            }
            json.append(i + 1 < rows.size() ? "},\n" : "}\n");
            csv.append('\n');
        }
        json.append("]}\n");
        Files.writeString(dir.resolve("summary.json"), json, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("summary.csv"), csv, StandardCharsets.UTF_8);
    }

    /** The row's keys and values as JSON object members, without the braces. */
    static String jsonFields(BenchRow row) {
        Object[] v = values(row);
        StringBuilder json = new StringBuilder();
        for (int c = 0; c < COLUMNS.length; c++) {
            json.append(c == 0 ? "" : ", ").append('"').append(COLUMNS[c]).append("\": ").append(jsonValue(v[c]));
        }
        return json.toString();
    }

    private static String jsonValue(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
        }
        if (v instanceof Double d) {
            // JSON has no NaN or infinity; an undefined metric is written as null.
            return Double.isFinite(d) ? number(d) : "null";
        }
        return v.toString();
    }

    static String csvValue(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return Double.isFinite(d) ? number(d) : "";
        }
        String s = v.toString();
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    private static String number(double d) {
        // Always with a decimal point so readers see a float, and rounded to keep files diff-friendly.
        return String.format(Locale.ROOT, "%.6f", d).replaceAll("0+$", "0");
    }
}
