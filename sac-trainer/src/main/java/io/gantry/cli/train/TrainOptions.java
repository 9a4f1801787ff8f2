package io.gantry.cli.train;

import static io.gantry.cli.FlagValues.number;
import static io.gantry.cli.FlagValues.positiveInt;

import io.gantry.cli.FlagValues;

import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.trace.TraceFormat;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The flags of {@code gantry train}, validated; every mistake is an {@link IllegalArgumentException} with a readable message. */
record TrainOptions(TraceFormat trace, Path traceFile, int firstJobs, List<Double> loads, int episodes, int episodeJobs,
                    double updatesPerDecision, long seed, int nodes, String init, boolean latencyOnly, Path out) {

    static final String USAGE = """
            usage: gantry train [--trace philly|openb|pollux|pai2020] [--trace-file PATH] [--first-jobs N]
                                [--load 0.8,1.0,1.2] [--episodes 40] [--episode-jobs 400] [--updates 0.5]
                                [--seed 1] [--nodes 13] [--init CHECKPOINT] [--latency] [--out DIR]
              --trace         trace format (default philly); --trace-file any other file in that format
              --first-jobs    train only on the first N jobs in arrival order (default all); for Philly,
                              5657 = September 2017, leaving October for testing
              --load          offered loads ρ episodes are drawn from (default 0.8,1.0,1.2)
              --episodes      training episodes (default 40)
              --episode-jobs  consecutive jobs per episode, at a seeded offset (default 400)
              --updates       gradient steps per decision taken (default 0.5)
              --seed          one seed for everything random (default 1): same seed, same log
              --nodes         identical Alibaba-shaped nodes (default 13)
              --init          continue from a checkpoint (folder or classpath:/...) instead of fresh weights
              --latency       only measure decision latency of --init (default: %s) at 13 nodes x 32 pending
                              and 1,000 nodes x 64 pending; writes latency.txt
              --out           output folder (default sac-trainer/runs/<timestamp>): train-log.csv,
                              learning-curves-*.png, checkpoint/ (sac.params + metadata.json)
            """.formatted(SacPolicy.DEFAULT_CHECKPOINT);

    static TrainOptions parse(String[] args) {
        TraceFormat trace = TraceFormat.PHILLY;
        Path traceFile = null;
        int firstJobs = 0;
        List<Double> loads = List.of(0.8, 1.0, 1.2);
        int episodes = 40;
        int episodeJobs = 400;
        double updates = 0.5;
        long seed = 1;
        int nodes = 13;
        String init = null;
        boolean latency = false;
        Path out = null;
        for (FlagValues.Flag f : FlagValues.read(args, Set.of("--latency"))) {
            String flag = f.name();
            String v = f.value();
            switch (flag) {
                case "--trace" -> trace = TraceFormat.byCliName(v);
                case "--trace-file" -> traceFile = Path.of(v);
                case "--first-jobs" -> firstJobs = positiveInt(flag, v);
                case "--load" -> {
                    loads = new ArrayList<>();
                    for (String s : v.split(",")) {
                        double d = number(flag, s.trim());
                        if (!(d > 0)) {
                            throw new IllegalArgumentException("--load values must be positive, got " + s);
                        }
                        loads.add(d);
                    }
                }
                case "--episodes" -> episodes = positiveInt(flag, v);
                case "--episode-jobs" -> episodeJobs = positiveInt(flag, v);
                case "--updates" -> {
                    updates = number(flag, v);
                    if (updates < 0) {
                        throw new IllegalArgumentException("--updates must not be negative");
                    }
                }
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed takes a whole number, got '" + v + "'");
                    }
                }
                case "--nodes" -> nodes = positiveInt(flag, v);
                case "--init" -> init = v;
                case "--latency" -> latency = true;
                case "--out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
        }
        traceFile = FlagValues.traceFile(trace, traceFile);
        if (out == null) {
            out = Path.of("sac-trainer", "runs", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new TrainOptions(trace, traceFile, firstJobs, loads, episodes, episodeJobs, updates, seed, nodes, init,
                latency, out);
    }
}
