import io.gantry.cli.bench.LineChart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws `./gantry soak`'s samples (soak.csv: t_s,process,heap_mib,rss_mib,cpu_s; lag.csv: t_s,group,consumer_lag)
 * with the CLI's LineChart, and writes its figures: per process the mean heap and RSS over the first and the last
 * fifth of the run and the CPU seconds it used between its first and last sample (which process is the bottleneck);
 * the summed lag's maximum and last value, and per consumer group its maximum, its value when the replay ended and its
 * last; and how long after the replay ended the summed lag first fell to DRAIN_FLOOR records (null if it did not):
 * lag that returns to the floor once the load stops was a backlog, not a leak. Run in source-file mode:
 * java -cp CLI_JAR bench/SoakChart.java CSV LAG_CSV SUMMARY PNG JSON REPLAY_END_S DRAIN_FLOOR.
 */
public final class SoakChart {

    public static void main(String[] args) throws Exception {
        Map<String, List<double[]>> byProcess = new LinkedHashMap<>();
        double end = 0;
        for (String[] f : rows(Path.of(args[0]))) {
            // A sample whose heap could not be read is left out (rather than drawn as 0).
            if (f.length == 5 && !f[2].isEmpty() && !f[4].isEmpty()) {
                double t = Double.parseDouble(f[0]);
                end = Math.max(end, t);
                byProcess.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new double[] {t,
                        Double.parseDouble(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4])});
            }
        }
        Map<String, List<double[]>> lagByGroup = new TreeMap<>();
        TreeMap<Double, Double> summed = new TreeMap<>();
        for (String[] f : rows(Path.of(args[1]))) {
            if (f.length == 3) {
                double t = Double.parseDouble(f[0]);
                double v = Double.parseDouble(f[2]);
                lagByGroup.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new double[] {t, v});
                summed.merge(t, v, Double::sum);
            }
        }
        List<double[]> lag = summed.entrySet().stream().map(e -> new double[] {e.getKey(), e.getValue()}).toList();
        double replayEnd = Double.parseDouble(args[5]);
        double floor = Double.parseDouble(args[6]);
        String base = args[3].replaceAll("\\.png$", "");
        chart("Heap in use", "heap (MiB)", byProcess, 1, Path.of(base + "-heap.png"));
        chart("Resident set size", "RSS (MiB)", byProcess, 2, Path.of(args[3]));
        LineChart lc = new LineChart("Consumer lag (replay ended at " + (long) replayEnd + " s)", "time (s)",
                "records", false);
        lc.add(new LineChart.Series("all groups", col(lag, 0), col(lag, 1)));
        // Only the groups that were ever behind by more than the floor: the rest are lines along the axis.
        lagByGroup.forEach((g, pts) -> {
            if (max(col(pts, 1)) > floor) {
                lc.add(new LineChart.Series(g, col(pts, 0), col(pts, 1)));
            }
        });
        lc.write(Path.of(base + "-lag.png"));
        Double drained = lag.stream().filter(p -> p[0] >= replayEnd && p[1] <= floor).findFirst()
                .map(p -> p[0] - replayEnd).orElse(null);
        StringBuilder json = new StringBuilder("{\n  \"duration_s\": " + end + ",\n  \"replay\": "
                + (Files.exists(Path.of(args[2])) ? Files.readString(Path.of(args[2])).strip() : "null")
                + ",\n  \"max_lag\": " + (long) max(col(lag, 1)) + ",\n  \"last_lag\": "
                + (lag.isEmpty() ? -1 : (long) lag.get(lag.size() - 1)[1]) + ",\n  \"replay_end_s\": " + replayEnd
                + ",\n  \"drain_floor\": " + (long) floor + ",\n  \"drained_after_s\": " + drained
                + ",\n  \"lag_by_group\": {" + groupsJson(lagByGroup, replayEnd) + "\n  },\n  \"processes\": {");
        System.out.printf(Locale.ROOT, "%-20s %12s %12s %12s %12s %10s%n", "process", "heap first", "heap last",
                "RSS first", "RSS last", "CPU s");
        String sep = "\n";
        for (Map.Entry<String, List<double[]>> e : byProcess.entrySet()) {
            double[] h = firstLast(e.getValue(), 1, end);
            double[] r = firstLast(e.getValue(), 2, end);
            List<double[]> pts = e.getValue();
            double cpu = pts.get(pts.size() - 1)[3] - pts.get(0)[3];
            System.out.printf(Locale.ROOT, "%-20s %10.1fMi %10.1fMi %10.1fMi %10.1fMi %10.1f%n", e.getKey(), h[0], h[1],
                    r[0], r[1], cpu);
            json.append(sep).append(String.format(Locale.ROOT, "    \"%s\": {\"heap_first_mib\": %.1f, "
                    + "\"heap_last_mib\": %.1f, \"rss_first_mib\": %.1f, \"rss_last_mib\": %.1f, \"cpu_s\": %.1f}",
                    e.getKey(), h[0], h[1], r[0], r[1], cpu));
            sep = ",\n";
        }
        json.append("\n  }\n}\n");
        Files.writeString(Path.of(args[4]), json);
        System.out.printf(Locale.ROOT, "consumer lag: max %d, last %d; %s%n", (long) max(col(lag, 1)),
                lag.isEmpty() ? -1 : (long) lag.get(lag.size() - 1)[1], drained == null
                        ? "not back to " + (long) floor + " records after the replay ended"
                        : String.format(Locale.ROOT, "back to %d records %.0f s after the replay ended", (long) floor,
                                drained));
    }

    /** Per group: its largest lag, its lag at the last sample before the replay ended, and its last. */
    private static String groupsJson(Map<String, List<double[]>> lagByGroup, double replayEnd) {
        StringBuilder out = new StringBuilder();
        String sep = "\n";
        for (Map.Entry<String, List<double[]>> e : lagByGroup.entrySet()) {
            List<double[]> pts = e.getValue();
            double atEnd = pts.stream().filter(p -> p[0] <= replayEnd).mapToDouble(p -> p[1]).reduce((a, b) -> b)
                    .orElse(0);
            out.append(sep).append(String.format(Locale.ROOT,
                    "    \"%s\": {\"max\": %d, \"at_replay_end\": %d, \"last\": %d}", e.getKey(),
                    (long) max(col(pts, 1)), (long) atEnd, (long) pts.get(pts.size() - 1)[1]));
            sep = ",\n";
        }
        return out.toString();
    }

    /** The lines of a CSV file after its header, split at commas. */
    private static List<String[]> rows(Path csv) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        return lines.subList(Math.min(1, lines.size()), lines.size()).stream().map(l -> l.split(",")).toList();
    }

    private static void chart(String title, String yLabel, Map<String, List<double[]>> data, int c, Path file)
            throws Exception {
        LineChart lc = new LineChart(title, "time (s)", yLabel, false);
        data.forEach((name, pts) -> lc.add(new LineChart.Series(name, col(pts, 0), col(pts, c))));
        lc.write(file);
    }

    /** Means of column c over the first and the last fifth of the run (the first minute holds the JIT's warm-up). */
    private static double[] firstLast(List<double[]> pts, int c, double end) {
        double a = 0, na = 0, b = 0, nb = 0;
        for (double[] p : pts) {
            if (p[0] <= end / 5) {
                a += p[c];
                na++;
            }
            if (p[0] >= end * 4 / 5) {
                b += p[c];
                nb++;
            }
        }
        return new double[] {na > 0 ? a / na : 0, nb > 0 ? b / nb : 0};
    }

    private static double[] col(List<double[]> pts, int c) {
        return pts.stream().mapToDouble(p -> p[c]).toArray();
    }

    private static double max(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
    }
}
