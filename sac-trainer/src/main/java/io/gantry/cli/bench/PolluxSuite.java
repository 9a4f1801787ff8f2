package io.gantry.cli.bench;

import io.gantry.cli.FlagValues;
import io.gantry.scheduling.trace.SharedTraces;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Issue 21's one-run comparison: {@code gantry bench --trace pollux} with no trace file and no cluster replays every
 * one of Pollux's 8 workload files at loads 0.5, 1.0 and 1.5 (its folders {@code workloads-0.5}, {@code workloads},
 * {@code workloads-1.5}) in Pollux's setting (16 nodes × 4 GPUs) and in Gantry's (13 × 8), each file through every
 * chosen policy and tuner mode on the same jobs, then prints per shape and load the means over the files side by side
 * (average JCT and GPU-hours, each against tuner off under the same policy, makespan, the least share of jobs
 * reaching their target) and Gantry's best configuration against the {@code pollux}† peer. {@code --load} picks folders
 * instead of reshaping arrivals. Writes each file's own results under {@code OUT/<shape>/<folder>/<file>/} and
 * {@code OUT/means.csv} and {@code OUT/summary.json} (every run, with its shape and folder). {@code
 * bench/pollux-adaptive.sh} runs the same replays a process per file, for reruns of a part.
 */
final class PolluxSuite {

    /** A cluster shape: its name and the flags that make it. */
    record Shape(String name, String nodes, String nodeShape) {
    }

    static final List<Shape> SHAPES = List.of(new Shape("16x4", "16", "4,64,256"), new Shape("13x8", "13", "8,96,384"));
    /** Pollux's folders by the load they were built for. */
    static final Map<Double, String> FOLDERS = Map.of(0.5, "workloads-0.5", 1.0, "workloads", 1.5, "workloads-1.5");
    private static final List<String> TUNER_ORDER = List.of("own", "off", "once", "adaptive", "adaptive+idle");

    /** One run of the suite: a bench row and where it ran. */
    record SuiteRow(String shape, double load, String folder, BenchRow row) {
        String tuner() {
            return row.tuner().mode();
        }
    }

    /** Means over the files (and seeds) of one shape, load, policy and tuner mode. */
    record Mean(String shape, double load, String policy, String tuner, int files, double avgJctS, double gpuHours,
                double makespanS, double minTargetReached) {
    }

    private PolluxSuite() {
    }

    /** True for {@code --trace pollux} without a trace file or a cluster: the whole suite, not one file. */
    static boolean applies(String[] args) {
        List<FlagValues.Flag> flags;
        try {
            flags = FlagValues.read(args, Set.of());
        } catch (RuntimeException e) {
            return false; // --help, or a flag without its value: the ordinary parser says so
        }
        boolean pollux = flags.stream().anyMatch(f -> f.name().equals("--trace") && f.value().equals("pollux"));
        return pollux && flags.stream().noneMatch(f -> Set.of("--trace-file", "--nodes", "--node-shape", "--nodes-file")
                .contains(f.name()));
    }

    /**
     * The suite a command line asks for: its flags checked once, before hours of replays.
     *
     * @param whole  the options as given (their output folder holds the suite)
     * @param files  the workload files to replay, by the load of their folder, in the order asked for
     * @param common the flags every file's run shares (all but --load and --out)
     */
    record Plan(BenchOptions whole, Map<Double, List<Path>> files, List<String> common) {
    }

    static Plan plan(String[] args) {
        BenchOptions whole = BenchOptions.parse(args);
        List<Double> loads = whole.loads().isEmpty() ? List.of(0.5, 1.0, 1.5) : whole.loads();
        for (double load : loads) {
            if (!FOLDERS.containsKey(load)) {
                throw new IllegalArgumentException("--load with Pollux's suite picks its folders: 0.5, 1.0 or 1.5, got " + load);
            }
        }
        List<String> common = new ArrayList<>();
        for (FlagValues.Flag f : FlagValues.read(args, Set.of())) {
            if (!f.name().equals("--load") && !f.name().equals("--out")) {
                common.add(f.name());
                common.add(f.value());
            }
        }
        Map<Double, List<Path>> files = new LinkedHashMap<>();
        for (double load : loads) {
            files.put(load, files(FOLDERS.get(load))); // a missing folder stops here, with where it was looked for
        }
        return new Plan(whole, files, common);
    }

    static int run(Plan plan, BenchCommand bench, PrintStream out) throws IOException {
        BenchOptions whole = plan.whole();
        List<String> common = plan.common();
        List<SuiteRow> rows = new ArrayList<>();
        int cells = SHAPES.size() * plan.files().values().stream().mapToInt(List::size).sum();
        int done = 0;
        long started = System.nanoTime();
        for (Shape shape : SHAPES) {
            for (Map.Entry<Double, List<Path>> atLoad : plan.files().entrySet()) {
                double load = atLoad.getKey();
                String folder = FOLDERS.get(load);
                for (Path file : atLoad.getValue()) {
                    String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
                    List<String> cell = new ArrayList<>(common);
                    cell.addAll(List.of("--trace-file", file.toString(), "--nodes", shape.nodes(), "--node-shape",
                            shape.nodeShape(), "--out", whole.out().resolve(shape.name()).resolve(folder).resolve(name).toString()));
                    out.printf(Locale.ROOT, "[%d/%d] %s load %.1f %s%s%n", done + 1, cells, shape.name(), load, name,
                            timeLeft(started, done, cells));
                    BenchOptions opts = BenchOptions.parse(cell.toArray(new String[0]));
                    Files.createDirectories(opts.out());
                    List<BenchRow> cellRows = bench.run(opts);
                    SummaryWriter.write(opts.out(), cellRows);
                    done++;
                    cellRows.forEach(r -> rows.add(new SuiteRow(shape.name(), load, folder, r)));
                }
            }
        }
        List<Mean> means = means(rows);
        print(means, out);
        write(whole.out(), rows, means);
        out.println("wrote " + whole.out().resolve("means.csv") + ", summary.json and each file's results beside them");
        return 0;
    }

    /**
     * How long the suite has run and, once a file has been replayed, about how long is left at that pace (the cells
     * differ: a 16 x 4 load 1.5 file with pollux takes longest), so that hours of replays do not run blind.
     */
    static String timeLeft(long startedNanos, int done, int cells) {
        if (done == 0) {
            return "";
        }
        double elapsedS = (System.nanoTime() - startedNanos) / 1e9;
        return String.format(Locale.ROOT, " (%s so far, about %s left)", minutes(elapsedS),
                minutes(elapsedS / done * (cells - done)));
    }

    private static String minutes(double s) {
        return String.format(Locale.ROOT, "%d min %02d s", (long) s / 60, (long) s % 60);
    }

    private static List<Path> files(String folder) {
        Path dir = SharedTraces.tracesDir().resolve("philly-pollux").resolve(folder);
        List<Path> files = List.of();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(p -> p.getFileName().toString().matches("workload-\\d+\\.csv"))
                        .sorted(Comparator.comparingInt(PolluxSuite::fileNumber)).toList();
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot list " + dir + ": " + e.getMessage());
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no workload-N.csv in " + dir + " (Pollux's workloads, see the shared"
                    + " traces' README; -Dgantry.shared.dir or GANTRY_SHARED_DIR says where they are)");
        }
        return files;
    }

    private static int fileNumber(Path p) {
        return Integer.parseInt(p.getFileName().toString().replaceAll("\\D", ""));
    }

    static List<Mean> means(List<SuiteRow> rows) {
        Map<List<Object>, List<SuiteRow>> groups = new LinkedHashMap<>();
        for (SuiteRow r : rows) {
            groups.computeIfAbsent(List.of(r.shape(), r.load(), r.row().policy(), r.tuner()), k -> new ArrayList<>()).add(r);
        }
        List<Mean> out = new ArrayList<>();
        for (List<SuiteRow> g : groups.values()) {
            SuiteRow first = g.get(0);
            int files = (int) g.stream().map(r -> r.row().traceFile()).distinct().count();
            out.add(new Mean(first.shape(), first.load(), first.row().policy(), first.tuner(), files,
                    mean(g, r -> r.row().m().avgJctS()), mean(g, r -> r.row().tuner().gpuHours()),
                    mean(g, r -> r.row().m().makespanS()),
                    g.stream().mapToDouble(r -> r.row().tuner().targetReachedRatio()).min().orElse(Double.NaN)));
        }
        out.sort(Comparator.comparing(Mean::shape).thenComparingDouble(Mean::load)
                .thenComparing(m -> !m.policy().equals("pollux")).thenComparing(Mean::policy)
                .thenComparingInt(m -> TUNER_ORDER.indexOf(m.tuner())));
        return out;
    }

    private static double mean(List<SuiteRow> g, java.util.function.ToDoubleFunction<SuiteRow> f) {
        return g.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    /** The same policy with its tuner off, in the same shape and load; null where it did not run. */
    private static Mean off(List<Mean> means, Mean m) {
        return means.stream().filter(o -> o.shape().equals(m.shape()) && o.load() == m.load()
                && o.policy().equals(m.policy()) && o.tuner().equals("off") && !m.tuner().equals("off")).findFirst().orElse(null);
    }

    private static String vs(double x, double base) {
        return String.format(Locale.ROOT, "%+.1f%%", 100 * (x / base - 1));
    }

    static void print(List<Mean> means, PrintStream out) {
        out.printf("%-5s %4s %-10s %-13s %5s %10s %7s %10s %7s %11s %6s%n", "shape", "load", "policy", "tuner", "files",
                "avg JCT s", "vs off", "GPU-hours", "vs off", "makespan s", "target");
        for (Mean m : means) {
            Mean o = off(means, m);
            out.printf(Locale.ROOT, "%-5s %4.1f %-10s %-13s %5d %10.0f %7s %10.1f %7s %11.0f %6.3f%n", m.shape(), m.load(),
                    m.policy() + (m.policy().equals("pollux") ? BenchCommand.PEER_MARK : ""), m.tuner(), m.files(), m.avgJctS(),
                    o == null ? "" : vs(m.avgJctS(), o.avgJctS()), m.gpuHours(), o == null ? "" : vs(m.gpuHours(), o.gpuHours()),
                    m.makespanS(), m.minTargetReached());
        }
        out.println("\nGantry's best configuration (lowest mean avg JCT, policy/tuner) against pollux" + BenchCommand.PEER_MARK + ":");
        for (Shape shape : SHAPES) {
            for (double load : List.of(0.5, 1.0, 1.5)) {
                List<Mean> here = means.stream().filter(m -> m.shape().equals(shape.name()) && m.load() == load).toList();
                Mean pollux = here.stream().filter(m -> m.policy().equals("pollux")).findFirst().orElse(null);
                Mean best = here.stream().filter(m -> !m.policy().equals("pollux")).min(Comparator.comparingDouble(Mean::avgJctS))
                        .orElse(null);
                if (best == null) {
                    continue;
                }
                if (pollux == null) {
                    out.printf(Locale.ROOT, "  %s load %.1f: pollux%s not run%n", shape.name(), load, BenchCommand.PEER_MARK);
                    continue;
                }
                out.printf(Locale.ROOT, "  %s load %.1f: %s/%s %.0f s vs pollux %.0f s (%s): %s%n", shape.name(), load,
                        best.policy(), best.tuner(), best.avgJctS(), pollux.avgJctS(), vs(best.avgJctS(), pollux.avgJctS()),
                        best.avgJctS() < pollux.avgJctS() ? "below" : "NOT below");
            }
        }
    }

    private static void write(Path dir, List<SuiteRow> rows, List<Mean> means) throws IOException {
        StringBuilder csv = new StringBuilder("shape,load,policy,tuner,files,avg_jct_s,gpu_hours,makespan_s,min_target_reached_ratio\n");
        for (Mean m : means) {
            csv.append(String.join(",", m.shape(), Double.toString(m.load()), m.policy(), m.tuner(), Integer.toString(m.files()),
                    SummaryWriter.csvValue(m.avgJctS()), SummaryWriter.csvValue(m.gpuHours()),
                    SummaryWriter.csvValue(m.makespanS()), SummaryWriter.csvValue(m.minTargetReached()))).append('\n');
        }
        Files.writeString(dir.resolve("means.csv"), csv, StandardCharsets.UTF_8);
        StringBuilder json = new StringBuilder("{\"runs\":[\n");
        for (int i = 0; i < rows.size(); i++) {
            SuiteRow r = rows.get(i);
            json.append("  {\"shape\": \"").append(r.shape()).append("\", \"workloads\": \"").append(r.folder()).append("\", ")
                    .append(SummaryWriter.jsonFields(r.row())).append(i + 1 < rows.size() ? "},\n" : "}\n");
        }
        Files.writeString(dir.resolve("summary.json"), json.append("]}\n"), StandardCharsets.UTF_8);
    }
}
