package io.gantry.cli.replay;

import static io.gantry.cli.FlagValues.nonNegative;
import static io.gantry.cli.FlagValues.positive;
import static io.gantry.cli.FlagValues.positiveInt;

import io.gantry.cli.FlagValues;

import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.TraceFormat;
import java.nio.file.Path;
import java.util.Set;

/** The flags of {@code gantry replay}; every bad flag is an {@link IllegalArgumentException} naming it. */
record ReplayOptions(String bootstrap, TraceFormat trace, Path traceFile, int skip, int jobs, boolean wrap,
                     double speedup, double rate, boolean exitWhenDone, Path summary, double timeoutS, NodeShape shape,
                     Path serviceEvents, int realJobs, long realSeed) {

    static final String USAGE = """
            usage: gantry replay [--bootstrap HOST:PORT] [--trace openb|philly|pollux|pai2020] [--trace-file PATH]
                                 [--skip N] [--jobs N] [--wrap] [--speedup X] [--rate JOBS_PER_S] [--exit-when-done]
                                 [--summary FILE] [--timeout-s S] [--node-shape GPUS,VCPUS,MEM_GIB]
                                 [--service-events FILE] [--real-jobs N] [--real-seed S]
              --skip N      leave out the first N jobs (in arrival order), e.g. to replay a later slice
              --wrap        when --jobs N is more than the trace holds after --skip, start over: pass k (from 2)
                            replays the same jobs as <job id>-passk, one trace span later, so no job id repeats
              --speedup X   trace seconds per wall-clock second (arrivals and the simulated cluster alike)
              --rate R      ignore the trace's arrival times and submit R jobs per second (0 = as fast as possible)
              --real-jobs N mix N real training jobs (training-model RealJobSet: a CNN on digits, MLPs on iris,
                            wine and breast cancer, varied sizes and users) evenly into the trace; each trains
                            in a job-runner process and stops at its target test accuracy (0)
              --real-seed S seed of real job i is S + i (1)
              --service-events FILE
                            show the lines a supervisor appends to FILE ("<time> <process> <what happened>", as
                            ./gantry up writes them) above the progress line, with the restarts counted in it
            A secured broker: KAFKA_SECURITY_PROTOCOL (SASL_PLAINTEXT), KAFKA_SASL_MECHANISM (SCRAM-SHA-512) and
            KAFKA_SASL_JAAS_CONFIG (the login, e.g. of principal submitter) in the environment; ./gantry up and
            ./gantry replay set them from the run's credentials.
            """;

    static ReplayOptions parse(String[] args) {
        String bootstrap = "localhost:9092";
        TraceFormat trace = TraceFormat.OPENB;
        Path traceFile = null;
        int skip = 0;
        int jobs = Integer.MAX_VALUE;
        boolean wrap = false;
        double speedup = 20_000;
        double rate = -1;
        boolean exitWhenDone = false;
        Path summary = null;
        double timeoutS = Double.POSITIVE_INFINITY;
        NodeShape shape = NodeShape.ALIBABA_G2;
        Path serviceEvents = null;
        int realJobs = 0;
        long realSeed = 1;
        for (FlagValues.Flag f : FlagValues.read(args, Set.of("--exit-when-done", "--wrap"))) {
            String flag = f.name();
            String v = f.value();
            switch (flag) {
                case "--bootstrap" -> bootstrap = v;
                case "--trace" -> trace = TraceFormat.byCliName(v);
                case "--trace-file" -> traceFile = Path.of(v);
                case "--skip" -> skip = (int) nonNegative(flag, v);
                case "--jobs" -> jobs = positiveInt(flag, v);
                case "--wrap" -> wrap = true;
                case "--speedup" -> speedup = positive(flag, v);
                case "--rate" -> rate = nonNegative(flag, v);
                case "--exit-when-done" -> exitWhenDone = true;
                case "--summary" -> summary = Path.of(v);
                case "--timeout-s" -> timeoutS = positive(flag, v);
                case "--node-shape" -> shape = NodeShape.parse(v);
                case "--service-events" -> serviceEvents = Path.of(v);
                case "--real-jobs" -> {
                    realJobs = (int) nonNegative(flag, v);
                    if (realJobs > 1000) {
                        throw new IllegalArgumentException(flag + " must be at most 1000 (each trains in its own process), got " + v);
                    }
                }
                case "--real-seed" -> realSeed = (long) nonNegative(flag, v);
                default -> throw new IllegalArgumentException(flag + ": unknown flag");
            }
        }
        traceFile = FlagValues.traceFile(trace, traceFile);
        return new ReplayOptions(bootstrap, trace, traceFile, skip, jobs, wrap, speedup, rate, exitWhenDone, summary, timeoutS,
                shape, serviceEvents, realJobs, realSeed);
    }

    /** The trace file, resolved and checked by {@link #parse}. */
    Path file() {
        return traceFile;
    }
}
