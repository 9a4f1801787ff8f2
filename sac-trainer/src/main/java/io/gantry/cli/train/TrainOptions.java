package io.gantry.cli.train;

import static io.gantry.cli.FlagValues.number;
import static io.gantry.cli.FlagValues.positiveInt;

import io.gantry.cli.FlagValues;
import io.gantry.cli.TraceSplit;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.sac.SacSettings;
import io.gantry.scheduling.trace.TraceFormat;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The flags of {@code gantry train}, validated; every mistake is an {@link IllegalArgumentException} with a readable message. */
record TrainOptions(TraceFormat trace, Path traceFile, TraceSplit split, int firstJobs, List<Double> loads, int episodes,
                    int episodeJobs, double updatesPerDecision, long seed, int nodes, String init, boolean latencyOnly,
                    Path out, int validationJobs, boolean allowDirty, SacSettings settings) {

    static final String USAGE = """
            usage: gantry train [--trace philly|openb|pollux|pai2020] [--trace-file PATH] [--split train|validate|all]
                                [--first-jobs N] [--load 0.8,1.0,1.2] [--episodes 40] [--episode-jobs 400]
                                [--updates 0.5] [--seed 1] [--nodes 13] [--init CHECKPOINT] [--validate-jobs N]
                                [--residual-bound B] [--reward-scale S] [--features base|extended] [--allow-dirty]
                                [--latency] [--out DIR]
              --trace         trace format (default philly); --trace-file any other file in that format
              --split         Philly's named splits (bench/README.md, SAC): train = September 2017, validate =
                              2017-10-01 to 10-15, report = 2017-10-16 to 10-31, which training refuses;
                              all = the whole file (default)
              --first-jobs    train only on the first N jobs (of the split) in arrival order (default all)
              --load          offered loads ρ episodes are drawn from (default 0.8,1.0,1.2)
              --episodes      training episodes (default 40)
              --episode-jobs  consecutive jobs per episode, at a seeded offset (default 400)
              --updates       gradient steps per decision taken (default 0.5)
              --seed          one seed for everything random (default 1): same seed, same log
              --nodes         identical Alibaba-shaped nodes (default 13)
              --init          continue from a checkpoint (folder or classpath:/...) instead of fresh weights
              --validate-jobs with --split train: before training and after every episode, replay one window of
                              N validation-split jobs (seeded by --seed) greedily at each --load; the mean
                              avg JCT is the log's val_avg_jct_s and learning-curves-validation.png (default off)
              --residual-bound  the learned correction's bound B in prior + B x tanh(MLP) (default %s)
              --reward-scale  job-seconds one unit of reward stands for (default %.0f = 100 job-hours)
              --features      base (default): the features every checkpoint so far reads; extended: also where each
                              job stands in the whole queue, its user's share of the queue, and the run times the
                              policy saw the user's jobs take and by how much they outlived their predictions
              --allow-dirty   train even if the git tree has uncommitted changes; the checkpoint's metadata then
                              says dirty (without it such a run is refused: a checkpoint names a clean commit)
              --latency       only measure decision latency of --init (default: %s) at 13 nodes x 32 pending
                              and 1,000 nodes x 64 pending; writes latency.txt
              --out           output folder (default sac-trainer/runs/<timestamp>): train-log.csv,
                              learning-curves-*.png, checkpoint/ (sac.params + metadata.json)
            """.formatted(SacSettings.DEFAULT_RESIDUAL_BOUND, SacSettings.DEFAULT.rewardScaleJobSeconds(),
            SacPolicy.DEFAULT_CHECKPOINT);

    static TrainOptions parse(String[] args) {
        Parser p = new Parser();
        for (FlagValues.Flag f : FlagValues.read(args, Set.of("--latency", "--allow-dirty"))) {
            if (!p.dataFlag(f.name(), f.value()) && !p.runFlag(f.name(), f.value())) {
                throw new IllegalArgumentException("unknown flag " + f.name());
            }
        }
        return p.build();
    }

    /** The flags as they are read; each group of flags is one method. */
    private static final class Parser {
        TraceFormat trace = TraceFormat.PHILLY;
        Path traceFile;
        TraceSplit split = TraceSplit.ALL;
        int firstJobs;
        List<Double> loads = List.of(0.8, 1.0, 1.2);
        int episodeJobs = 400;
        int validationJobs;
        long seed = 1;
        int nodes = 13;

        int episodes = 40;
        double updates = 0.5;
        String init;
        boolean latency;
        boolean allowDirty;
        Path out;
        SacSettings settings = SacSettings.DEFAULT;
        boolean settingsGiven;

        /** What is replayed: trace, split, jobs, loads, seed, cluster. */
        boolean dataFlag(String flag, String v) {
            switch (flag) {
                case "--trace" -> trace = TraceFormat.byCliName(v);
                case "--trace-file" -> traceFile = Path.of(v);
                case "--split" -> {
                    split = TraceSplit.byCliName(v);
                    if (split == TraceSplit.REPORT || split == TraceSplit.OCTOBER) {
                        throw new IllegalArgumentException("--split " + v + " holds the reporting split: nothing may"
                                + " be trained or tuned on it (use train, or validate to choose settings)");
                    }
                }
                case "--first-jobs" -> firstJobs = positiveInt(flag, v);
                case "--load" -> loads = loads(flag, v);
                case "--episode-jobs" -> episodeJobs = positiveInt(flag, v);
                case "--validate-jobs" -> validationJobs = positiveInt(flag, v);
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed takes a whole number, got '" + v + "'");
                    }
                }
                case "--nodes" -> nodes = positiveInt(flag, v);
                default -> {
                    return false;
                }
            }
            return true;
        }

        /** How training runs: episodes, steps, the agent's settings, start point, provenance and output. */
        boolean runFlag(String flag, String v) {
            switch (flag) {
                case "--episodes" -> episodes = positiveInt(flag, v);
                case "--updates" -> {
                    updates = number(flag, v);
                    if (updates < 0) {
                        throw new IllegalArgumentException("--updates must not be negative");
                    }
                }
                case "--residual-bound" -> {
                    settings = settings.withResidualBound(FlagValues.positive(flag, v));
                    settingsGiven = true;
                }
                case "--reward-scale" -> {
                    settings = settings.withRewardScale(FlagValues.positive(flag, v));
                    settingsGiven = true;
                }
                case "--features" -> {
                    settings = settings.withExtendedFeatures(switch (v) {
                        case "base" -> false;
                        case "extended" -> true;
                        default -> throw new IllegalArgumentException("--features is base or extended, got '" + v + "'");
                    });
                    settingsGiven = true;
                }
                case "--init" -> init = v;
                case "--latency" -> latency = true;
                case "--allow-dirty" -> allowDirty = true;
                case "--out" -> out = Path.of(v);
                default -> {
                    return false;
                }
            }
            return true;
        }

        TrainOptions build() {
            Path file = FlagValues.traceFile(trace, traceFile);
            if (validationJobs > 0 && split != TraceSplit.TRAIN) {
                throw new IllegalArgumentException("--validate-jobs replays the validation split: it needs --split train");
            }
            if (settingsGiven && init != null) {
                throw new IllegalArgumentException("--residual-bound, --reward-scale and --features set a fresh agent;"
                        + " --init keeps the checkpoint's settings");
            }
            Path dir = out != null ? out
                    : Path.of("sac-trainer", "runs", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new TrainOptions(trace, file, split, firstJobs, loads, episodes, episodeJobs, updates, seed, nodes,
                    init, latency, dir, validationJobs, allowDirty, settings);
        }
    }

    private static List<Double> loads(String flag, String v) {
        List<Double> out = new ArrayList<>();
        for (String s : v.split(",")) {
            double d = number(flag, s.trim());
            if (!(d > 0)) {
                throw new IllegalArgumentException("--load values must be positive, got " + s);
            }
            out.add(d);
        }
        return out;
    }
}
