package io.gantry.cli.adapt;

import io.gantry.cli.FlagValues;
import io.gantry.cli.TraceSplit;
import io.gantry.scheduling.sac.PromotionGate;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.trace.TraceFormat;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The flags of {@code gantry adapt}, validated; a mistake is an {@link IllegalArgumentException} naming the flag. */
record AdaptOptions(Path traceFile, TraceSplit split, int jobs, int nodes, double load, List<Long> seeds,
                    String checkpoint, double updatesPerTransition, int checkEvery, int checkJobs,
                    PromotionGate.Settings gate, int rollingJobs, Path out) {

    static final String USAGE = """
            usage: gantry adapt [--trace-file PATH] [--split october] [--jobs N] [--nodes 13] [--load 1.0] [--seeds 1]
                                [--checkpoint DIR] [--updates 0.25] [--check-every 200] [--check-jobs 400]
                                [--check-windows 10] [--check-alpha 0.05] [--check-min-improvement 0.02]
                                [--rolling-jobs 500] [--out DIR]
              replays a month of Philly after training on September three ways, from the same checkpoint:
              frozen (greedy, never learns), online (learns as it replays and decides with what it learned:
              no gate) and gated (learns as it replays; a frozen copy decides, replaced only when the live
              learner's promotion gate passes a newer copy on the last completed jobs)
              --trace-file  the Philly trace (default the shipped philly-sep-oct.csv)
              --split       october (default: Oct 1-31), validate or report (bench/README.md, SAC)
              --jobs        keep only the split's first N jobs by submit time (default all): a quick look
              --nodes       identical Alibaba-shaped nodes of 8 GPUs (default 13)
              --load        target offered load rho the arrivals are rescaled to (default 1.0)
              --seeds       comma list (default 1): the learners' sampling and the simulator's draws
              --checkpoint  the policy to start from (default the shipped classpath:/sac/default)
              --updates     gradient steps per new transition (default 0.25, the shipped recipe's)
              --check-every completed jobs between two gate checks (default 200)
              --check-jobs  the check set: the last N completed jobs (default 400, the live check-window-jobs)
              --check-windows, --check-alpha, --check-min-improvement
                            the gate's settings (default 10, 0.05, 0.02: the live learner's)
              --rolling-jobs jobs in the rolling average JCT of the chart (default 500)
              --out         output folder (default bench/results/adapt-<timestamp>): jobs.csv, checks.csv,
                            summary.json, rolling-jct-seed<S>.png
            """;

    static AdaptOptions parse(String[] args) {
        Path traceFile = null;
        TraceSplit split = TraceSplit.OCTOBER;
        int jobs = 0;
        int nodes = 13;
        double load = 1.0;
        List<Long> seeds = List.of(1L);
        String checkpoint = SacPolicy.DEFAULT_CHECKPOINT;
        double updates = 0.25;
        int checkEvery = 200;
        int checkJobs = 400;
        PromotionGate.Settings d = PromotionGate.Settings.DEFAULT;
        int windows = d.windows();
        double alpha = d.alpha();
        double minImprovement = d.minImprovement();
        int rolling = 500;
        Path out = null;
        for (FlagValues.Flag f : FlagValues.read(args, Set.of())) {
            String flag = f.name();
            String v = f.value();
            switch (flag) {
                case "--trace-file" -> traceFile = Path.of(v);
                case "--split" -> split = dated(TraceSplit.byCliName(v));
                case "--jobs" -> jobs = FlagValues.positiveInt(flag, v);
                case "--nodes" -> nodes = FlagValues.positiveInt(flag, v);
                case "--load" -> load = FlagValues.positive(flag, v);
                case "--seeds" -> seeds = FlagValues.seeds(flag, v);
                case "--checkpoint" -> checkpoint = v;
                case "--updates" -> updates = FlagValues.positive(flag, v);
                case "--check-every" -> checkEvery = FlagValues.positiveInt(flag, v);
                case "--check-jobs" -> checkJobs = FlagValues.positiveInt(flag, v);
                case "--check-windows" -> windows = FlagValues.positiveInt(flag, v);
                case "--check-alpha" -> alpha = FlagValues.positive(flag, v);
                case "--check-min-improvement" -> minImprovement = FlagValues.nonNegative(flag, v);
                case "--rolling-jobs" -> rolling = FlagValues.positiveInt(flag, v);
                case "--out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
        }
        PromotionGate.Settings gate;
        try {
            gate = new PromotionGate.Settings(windows, alpha, minImprovement);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--check-windows/--check-alpha/--check-min-improvement: "
                    + e.getMessage());
        }
        if (checkJobs < windows) {
            throw new IllegalArgumentException("--check-jobs " + checkJobs + " cannot fill " + windows + " windows");
        }
        if (out == null) {
            out = Path.of("bench", "results", "adapt-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new AdaptOptions(FlagValues.traceFile(TraceFormat.PHILLY, traceFile), split, jobs, nodes, load, seeds,
                checkpoint, updates, checkEvery, checkJobs, gate, rolling, out);
    }

    private static TraceSplit dated(TraceSplit s) {
        if (s == TraceSplit.ALL || s == TraceSplit.TRAIN) {
            throw new IllegalArgumentException("--split " + s.cliName() + ": adapt replays months the policy was not"
                    + " trained on (october, validate or report)");
        }
        return s;
    }
}
