package io.gantry.cli.benchfrag;

import io.gantry.cli.bench.LineChart;
import io.gantry.scheduling.gpushare.FragCurve;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What {@code gantry bench-frag} writes: {@code frag.csv} (every curve point of every run), {@code summary.json}
 * ({@code runs}: one per policy with {@code policy}, {@code seeds}, {@code gpu_alloc_at_100}, {@code gpu_alloc_at_130}
 * in percent as means over seeds, {@code wall_s} the mean seconds of one run, plus spreads and fragmentation),
 * one PNG per policy, and the table on stdout.
 */
final class FragOutputs {

    private FragOutputs() {
    }

    static void writeCsv(Path file, List<PolicyRuns> runs) throws IOException {
        StringBuilder b = new StringBuilder("policy,seed,arrived_pct,gpu_alloc_pct,frag_pct,frag_of_idle_pct\n");
        for (PolicyRuns r : runs) {
            for (int s = 0; s < r.curves().size(); s++) {
                FragCurve c = r.curves().get(s);
                for (int k = 0; k <= c.maxPercent(); k++) {
                    b.append(String.format(Locale.ROOT, "%s,%d,%d,%.4f,%.4f,%.4f%n", r.policy(), r.seeds().get(s), k,
                            c.allocPct()[k], c.fragPct()[k], c.fragOfIdlePct()[k]));
                }
            }
        }
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }

    static void writeSummary(Path file, List<PolicyRuns> runs, int top, String pods, String nodes) throws IOException {
        StringBuilder b = new StringBuilder("{\"pods_file\": \"" + json(pods) + "\", \"nodes_file\": \"" + json(nodes)
                + "\", \"runs\": [\n");
        for (int i = 0; i < runs.size(); i++) {
            PolicyRuns r = runs.get(i);
            b.append(String.format(Locale.ROOT, "  {\"policy\": \"%s\", \"seeds\": %d, \"seed_list\": %s, "
                            + "\"gpu_alloc_at_100\": %.4f, \"gpu_alloc_at_130\": %.4f, \"gpu_alloc_sd_at_100\": %.4f, "
                            + "\"gpu_alloc_sd_at_130\": %.4f, \"frag_at_100\": %.4f, \"frag_at_130\": %.4f, "
                            + "\"wall_s\": %.4f, \"max_wall_s\": %.4f}%s%n",
                    r.policy(), r.seeds().size(), r.seeds(), r.meanAt(FragCurve::allocPct, 100),
                    r.meanAt(FragCurve::allocPct, top), r.sdAt(FragCurve::allocPct, 100), r.sdAt(FragCurve::allocPct, top),
                    r.meanAt(FragCurve::fragPct, 100), r.meanAt(FragCurve::fragPct, top), r.meanWallS(), r.maxWallS(),
                    i + 1 < runs.size() ? "," : ""));
        }
        Files.writeString(file, b.append("]}\n"), StandardCharsets.UTF_8);
    }

    static void writePlots(Path dir, List<PolicyRuns> runs) throws IOException {
        LineChart all = new LineChart("GPU allocation vs arrived GPU requests (mean over seeds)",
                "arrived GPU requests (% of cluster)", "% of cluster GPU", false);
        for (PolicyRuns r : runs) {
            double[] x = percents(r);
            LineChart one = new LineChart(r.policy() + ": allocation and fragmentation (mean of " + r.curves().size()
                    + " seeds)", "arrived GPU requests (% of cluster)", "% of cluster GPU", false);
            one.add(new LineChart.Series("allocated", x, r.meanCurve(FragCurve::allocPct)));
            one.add(new LineChart.Series("fragmented", x, r.meanCurve(FragCurve::fragPct)));
            one.write(dir.resolve("frag-" + r.policy() + ".png"));
            all.add(new LineChart.Series(r.policy(), x, r.meanCurve(FragCurve::allocPct)));
        }
        all.write(dir.resolve("alloc-all.png"));
    }

    static void printTable(PrintStream out, List<PolicyRuns> runs, int top) {
        out.printf(Locale.ROOT, "%-16s %5s  %15s  %15s  %9s  %9s  %7s%n", "policy", "seeds", "alloc@100 (sd)",
                "alloc@" + top + " (sd)", "frag@100", "frag@" + top, "wall_s");
        for (PolicyRuns r : runs) {
            out.printf(Locale.ROOT, "%-16s %5d  %7.2f%% (%.2f)  %7.2f%% (%.2f)  %8.2f%%  %8.2f%%  %7.2f%n", r.policy(),
                    r.curves().size(), r.meanAt(FragCurve::allocPct, 100), r.sdAt(FragCurve::allocPct, 100),
                    r.meanAt(FragCurve::allocPct, top), r.sdAt(FragCurve::allocPct, top),
                    r.meanAt(FragCurve::fragPct, 100), r.meanAt(FragCurve::fragPct, top), r.meanWallS());
        }
    }

    private static double[] percents(PolicyRuns r) {
        double[] x = new double[r.curves().get(0).maxPercent() + 1];
        for (int k = 0; k < x.length; k++) {
            x[k] = k;
        }
        return x;
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
