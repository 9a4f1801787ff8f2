package io.gantry.cli.predict;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.FlagValues;
import io.gantry.cli.PrintingCommand;
import io.gantry.cli.TraceSplit;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.predict.PredictionAccuracy;
import io.gantry.scheduling.predict.PredictorKind;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceFormat;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code gantry predictors}: how well each duration predictor predicts Philly's run times on a split, learning from
 * the whole trace before each job ({@link PredictionAccuracy}); prints a table and writes {@code predictors.csv} and
 * {@code predictors.json}.
 */
public final class PredictorsCommand extends PrintingCommand {

    static final String USAGE = """
            usage: gantry predictors [--trace-file PATH] [--split validate] [--seed 1] [--out DIR]
              scores each duration predictor (history, learned, oracle-durations) on the jobs of a split of
              the Philly trace: each job is predicted at its submission from the jobs that ended before it
              (any earlier month included), as the scheduler would ask
              --trace-file  the Philly trace (default the shipped philly-sep-oct.csv)
              --split       the jobs scored: train, validate (default), report, october or all
              --seed        seed of the sampled pairs of the ordering measure (default 1)
              --out         output folder (default bench/results/predictors-<timestamp>)
            """;

    record Options(Path traceFile, TraceSplit split, long seed, Path out) {
    }

    public PredictorsCommand(PrintStream out, PrintStream err) {
        super(out, err);
    }

    @Override
    public String summary() {
        return "score the duration predictors on a split of Philly: log error and pair ordering";
    }

    @Override
    public int run(String[] args) throws IOException {
        return CommandOptions.run("predictors", USAGE, args, PredictorsCommand::parse, out, err, this::score);
    }

    static Options parse(String[] args) {
        Path traceFile = null;
        TraceSplit split = TraceSplit.VALIDATE;
        long seed = 1;
        Path dir = null;
        for (FlagValues.Flag f : FlagValues.read(args, Set.of())) {
            switch (f.name()) {
                case "--trace-file" -> traceFile = Path.of(f.value());
                case "--split" -> split = TraceSplit.byCliName(f.value());
                case "--seed" -> seed = oneSeed(f.value());
                case "--out" -> dir = Path.of(f.value());
                default -> throw new IllegalArgumentException("unknown flag " + f.name());
            }
        }
        if (dir == null) {
            dir = Path.of("bench", "results", "predictors-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new Options(FlagValues.traceFile(TraceFormat.PHILLY, traceFile), split, seed, dir);
    }

    private static long oneSeed(String v) {
        List<Long> seeds = FlagValues.seeds("--seed", v);
        if (seeds.size() != 1) {
            throw new IllegalArgumentException("--seed takes one seed, got '" + v + "'");
        }
        return seeds.get(0);
    }

    private int score(Options o) throws IOException {
        Trace trace = TraceFormat.PHILLY.loader().load(o.traceFile(), NodeShape.ALIBABA_G2);
        double[] range = o.split().range(trace);
        // The predictors learn from every job before the split's end; only the split's jobs are scored.
        List<JobRequest> seen = trace.jobs().stream().filter(j -> j.submitTime() < range[1]).toList();
        Files.createDirectories(o.out());
        StringBuilder csv = new StringBuilder("trace_file,split,seed,predictor,oracle,jobs,unknown,mae_log,pair_order\n");
        List<String> json = new ArrayList<>();
        out.printf("%-18s %7s %8s %9s %11s%n", "predictor", "jobs", "unknown", "mae_log", "pair_order");
        for (PredictorKind k : PredictorKind.values()) {
            PredictionAccuracy.Result r = PredictionAccuracy.measure(seen, k.create(), range[0], o.seed());
            String name = k.cliName() + (k.oracle() ? "*" : "");
            out.printf(Locale.ROOT, "%-18s %7d %8d %9.3f %11.3f%n", name, r.predicted(), r.unknown(), r.maeLog(),
                    r.pairOrder());
            csv.append(String.format(Locale.ROOT, "%s,%s,%d,%s,%b,%d,%d,%.6f,%.6f%n", o.traceFile(), o.split().cliName(),
                    o.seed(), k.cliName(), k.oracle(), r.predicted(), r.unknown(), r.maeLog(), r.pairOrder()));
            json.add(String.format(Locale.ROOT, "  {\"predictor\": \"%s\", \"oracle\": %b, \"jobs\": %d, \"unknown\": %d, "
                    + "\"mae_log\": %.6f, \"pair_order\": %.6f}", k.cliName(), k.oracle(), r.predicted(), r.unknown(),
                    r.maeLog(), r.pairOrder()));
        }
        out.printf("(split %s: %s; * knows true run times, not deployable; mae_log = mean |ln(1+predicted) - "
                + "ln(1+true)|; pair_order = share of sampled job pairs ordered as their true run times)%n",
                o.split().cliName(), o.split().dates());
        Files.writeString(o.out().resolve("predictors.csv"), csv, StandardCharsets.UTF_8);
        Files.writeString(o.out().resolve("predictors.json"), "{\"split\": \"" + o.split().cliName() + "\", \"seed\": "
                + o.seed() + ", \"predictors\": [\n" + String.join(",\n", json) + "\n]}\n", StandardCharsets.UTF_8);
        out.println("wrote " + o.out().resolve("predictors.csv") + " and predictors.json");
        return 0;
    }
}
