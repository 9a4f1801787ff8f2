package io.gantry.cli.bench;

import static io.gantry.cli.FlagValues.list;
import static io.gantry.cli.FlagValues.number;
import static io.gantry.cli.FlagValues.positiveInt;

import io.gantry.cli.FlagValues;
import io.gantry.cli.TraceSplit;

import io.gantry.scheduling.fairness.FairShareTracker;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.predict.PredictorKind;
import io.gantry.scheduling.sac.SacConfig;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.TraceFormat;
import io.gantry.scheduling.tuning.TrainingTuner;
import io.gantry.scheduling.tuning.TunerMode;
import io.gantry.scheduling.tuning.UsageModel;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The flags of {@code gantry bench}, validated; every mistake is an {@link IllegalArgumentException} with a readable message. */
record BenchOptions(TraceFormat trace, Path traceFile, int nodes, NodeShape nodeShape, List<Double> loads,
                    List<String> policies, List<Long> seeds, int jobs, int repeat, FairShareTracker.Settings fairShare, double fairReserveS, Path out,
                    List<TunerMode> tuners, double tunerScaling, List<Boolean> idleScaling, UsageModel usage, double preemptionCostS, Path nodesFile,
                    TraceSplit split, List<PredictorKind> predictors, boolean perJob) {

    static final String USAGE = """
            usage: gantry bench [--trace openb|philly|pollux|pai2020] [--trace-file PATH] [--split NAME] [--nodes 13] [--nodes-file F]
                                [--node-shape GPUS,VCPUS,MEM_GIB] [--load 0.8,1.0,1.2] [--policies LIST]
                                [--seeds 1,2,3] [--jobs N] [--repeat K] [--fair on|off] [--fair-half-life S]
                                [--fair-weight W] [--fair-refresh S] [--fair-reserve S] [--out DIR]
                                [--tuner off,once,adaptive] [--tuner-scaling E] [--tuner-idle-scaling off|on|off,on]
                                [--usage-model request|lognormal:CPU,MEM,SIGMA] [--preemption-cost S]
                                [--predictor history,learned,oracle-durations] [--per-job on|off]
              --trace       trace format (default openb); each has a default file under ../shared/traces.
                            pollux with none of --trace-file, --nodes, --node-shape, --nodes-file: Pollux's suite,
                            its 8 workloads at loads 0.5, 1.0 and 1.5 (--load picks among them) on 16 x 4-GPU and
                            13 x 8-GPU nodes, with the means over the files side by side (OUT/means.csv)
              --trace-file  any other file in that format (required for pai2020, which is not shipped)
              --split       Philly's named splits: train (September 2017), validate (2017-10-01 to 10-15),
                            report (2017-10-16 to 10-31, touched only by the final run), all (default)
              --nodes       identical nodes in the cluster (default 13)
              --node-shape  per node (default 8,96,384: Alibaba's commonest GPU node)
              --nodes-file  the cluster is the nodes of a list in the Alibaba GPU 2023 trace's format
                            (sn,cpu_milli,memory_mib,gpu,model; e.g. ../shared/traces/alibaba-gpu-v2023-openb/
                            openb_node_list_gpu_node.csv, 1,213 nodes) instead of --nodes identical ones
              --load        target offered loads ρ; omit to replay arrivals as recorded
              --policies    comma list (default all but pollux, which runs on Pollux workloads only): %s
              --seeds       seeds for the job window (default 1)
              --jobs        keep N consecutive jobs at a seeded offset (default all)
              --repeat      scale runs: replay the real trace K times back to back, each copy shifted
                            by the trace's span, ids suffixed ~r1..; real jobs repeated, none invented
                            (default 1); --jobs then cuts its window from the repeated sequence
              --fair        on: each tenant's dynamic fair-share priority (decayed GPU usage vs equal
                            entitlements, io.gantry.scheduling.fairness) is added to its jobs' priority,
                            which kube-default orders its queue by and sac sees as a feature (default off)
              --fair-half-life  usage half-life in seconds, with --fair on (default 86400)
              --fair-weight     most priority the fair-share term adds, with --fair on (default 100)
              --fair-refresh    seconds of virtual time between recomputations, with --fair on (default 300)
              --fair-reserve    with --fair on: once the highest-priority job has waited S seconds and fits
                                nowhere, reserve nodes for it until it starts (default: no reservations);
                                only for policies that never preempt (not tiresias or sac)
              --out         output folder (default bench/results/<timestamp>)
              --per-job     on: also write jobs.csv, one row per job of every replay (when it was
                            submitted, started and finished, its GPUs, restarts), to look past the
                            means (default off: a 20,000-job window makes tens of megabytes)
              --tuner       comma list of modes, each run on the same jobs (default off): off replays the
                            trace's own requests; once (or on): the job tuner (io.gantry.scheduling.tuning)
                            sets each job before it is queued: batch size, epochs and GPUs for pollux jobs,
                            CPU/memory right-sized for openb; adaptive (pollux jobs only): once, then the
                            batch size again at every epoch boundary and the GPU count every 60 s of
                            simulated time while the job runs (a GPU change is a checkpoint-restart: 30 s
                            plus --preemption-cost; a grow waits for the policy to place the extra GPUs).
                            pollux sizes its jobs itself: it runs once, under the first mode, shown as "own"
              --tuner-scaling  pollux jobs get another GPU only while it is predicted to do at
                            least E of one GPU's work (default %s)
              --tuner-idle-scaling  with --tuner adaptive: on shares the GPUs nobody waits for (free, and
                            held past that rule) among the running jobs at each re-tune, to whichever
                            saves most seconds per GPU-second, restarts counted, up to the GPUs its
                            profile measured a run on; a job may then train the epochs it was submitted
                            with at a larger batch; when a job waits, nobody grows and jobs holding idle
                            GPUs give back only what it lacks; off,on runs adaptive both ways on the
                            same jobs, "on" shown as tuner adaptive+idle (default off; bench/README.md,
                            Tuner, says why)
              --usage-model what jobs really use of their CPU/memory request, for right-sizing and OOM
                            kills; an assumption, no trace measures it (default request: all of it;
                            bench/README.md, Tuner)
              --preemption-cost  seconds of run time a preempted job needs again each time it resumes
                            (reloading a checkpoint; Pollux charges 30); default 0: preemption is free
              --predictor   comma list of duration predictors, each run on the same jobs (default history):
                            history = the mean run time of the user's last 10 jobs of the same shape
                            (Helios); learned = an online regression of the log run time on the user's,
                            shape's and everyone's recent history, gang size and submission bursts, fitted
                            as jobs finish; oracle-durations = the true run time (not deployable; rows
                            marked *). A row's policy reads policy@predictor unless the predictor is history
              --policy-setting  sac.checkpoint=DIR, sac.restart-cost-s=S or sac.replay-learning=U (repeatable):
                            the sac policy's checkpoint, the restart cost it weighs (env GANTRY_SAC_CHECKPOINT,
                            GANTRY_SAC_RESTART_COST_S otherwise), and U > 0 gradient steps per transition it
                            takes while it replays (online learning in the replay; default 0: frozen)
            """;

    static BenchOptions parse(String[] args) {
        Parser p = new Parser();
        for (FlagValues.Flag f : FlagValues.read(args, Set.of())) {
            if (!p.workloadFlag(f.name(), f.value()) && !p.fairFlag(f.name(), f.value())
                    && !p.modelFlag(f.name(), f.value())) {
                throw new IllegalArgumentException("unknown flag " + f.name());
            }
        }
        return p.build();
    }

    /** The flags as they are read; each group of flags is one method. */
    private static final class Parser {
        TraceFormat trace = TraceFormat.OPENB;
        Path traceFile;
        int nodes = 13;
        NodeShape shape = NodeShape.ALIBABA_G2;
        List<Double> loads = new ArrayList<>();
        List<String> policies = new ArrayList<>(PolicyRegistry.generalNames());
        List<Long> seeds = List.of(1L);
        int jobs;
        int repeat = 1;
        boolean fairShare;
        FairShareTracker.Settings fairSettings = FairShareTracker.Settings.DEFAULT;
        boolean fairTuned;
        double fairReserveS = Double.NaN;
        Path out;
        List<TunerMode> tuners = List.of(TunerMode.OFF);
        double tunerScaling = TrainingTuner.Settings.DEFAULT.minScalingEfficiency();
        List<Boolean> idleScaling = List.of(false);
        UsageModel usage = UsageModel.REQUEST;
        double preemptionCostS;
        Path nodesFile;
        TraceSplit split = TraceSplit.ALL;
        List<PredictorKind> predictors = List.of(PredictorKind.HISTORY);
        boolean perJob;

        /** What is replayed: trace, cluster, loads, policies, seeds, window and where results go. */
        boolean workloadFlag(String flag, String v) {
            switch (flag) {
                case "--trace" -> trace = TraceFormat.byCliName(v);
                case "--trace-file" -> traceFile = Path.of(v);
                case "--split" -> split = TraceSplit.byCliName(v);
                case "--nodes" -> nodes = positiveInt(flag, v);
                case "--node-shape" -> shape = NodeShape.parse(v);
                case "--nodes-file" -> nodesFile = Path.of(v);
                case "--load" -> loads = loads(flag, v);
                case "--policies" -> policies = policies(flag, v);
                case "--seeds" -> seeds = FlagValues.seeds(flag, v);
                case "--jobs" -> jobs = positiveInt(flag, v);
                case "--repeat" -> repeat = positiveInt(flag, v);
                case "--out" -> out = Path.of(v);
                case "--per-job" -> perJob = onOff(flag, v);
                default -> {
                    return false;
                }
            }
            return true;
        }

        /** Fair share and its starvation reservation. */
        boolean fairFlag(String flag, String v) {
            switch (flag) {
                case "--fair" -> fairShare = onOff(flag, v);
                case "--fair-half-life" -> fairSettings = new FairShareTracker.Settings(positiveSeconds(flag, v),
                        fairSettings.fairShareWeight(), fairSettings.refreshIntervalS());
                case "--fair-weight" -> {
                    double w = number(flag, v);
                    if (!(w >= 0)) {
                        throw new IllegalArgumentException("--fair-weight takes a finite number ≥ 0, got '" + v + "'");
                    }
                    fairSettings = new FairShareTracker.Settings(fairSettings.halfLifeS(), w, fairSettings.refreshIntervalS());
                }
                case "--fair-refresh" -> fairSettings = new FairShareTracker.Settings(fairSettings.halfLifeS(),
                        fairSettings.fairShareWeight(), positiveSeconds(flag, v));
                case "--fair-reserve" -> fairReserveS = nonNegativeSeconds(flag, v);
                default -> {
                    return false;
                }
            }
            fairTuned |= !flag.equals("--fair");
            return true;
        }

        /** The tuner, the usage model, the cost of a preemption and the policies' own settings. */
        boolean modelFlag(String flag, String v) {
            switch (flag) {
                case "--tuner" -> tuners = tunerModes(flag, v);
                case "--tuner-scaling" -> {
                    tunerScaling = number(flag, v);
                    if (!(tunerScaling > 0 && tunerScaling <= 1)) {
                        throw new IllegalArgumentException("--tuner-scaling takes a number in (0, 1], got '" + v + "'");
                    }
                }
                case "--tuner-idle-scaling" -> idleScaling = onOffList(flag, v);
                case "--usage-model" -> usage = UsageModel.parse(v);
                case "--preemption-cost" -> preemptionCostS = nonNegativeSeconds(flag, v);
                case "--predictor" -> predictors = predictors(flag, v);
                case "--policy-setting" -> {
                    int eq = v.indexOf('=');
                    if (eq <= 0 || !v.startsWith("sac.")) {
                        throw new IllegalArgumentException("--policy-setting takes sac.checkpoint=DIR, "
                                + "sac.restart-cost-s=S or sac.replay-learning=U, got '" + v + "'");
                    }
                    SacConfig.use(SacConfig.current().with(v.substring(0, eq), v.substring(eq + 1)));
                }
                default -> {
                    return false;
                }
            }
            return true;
        }

        BenchOptions build() {
            if (fairTuned && !fairShare) {
                throw new IllegalArgumentException("--fair-half-life, --fair-weight, --fair-refresh and --fair-reserve need --fair on");
            }
            if (idleScaling.contains(true) && !tuners.contains(TunerMode.ADAPTIVE)) {
                throw new IllegalArgumentException("--tuner-idle-scaling on needs --tuner adaptive: only re-tuned jobs change "
                        + "their GPU count while they run");
            }
            if (tuners.contains(TunerMode.ADAPTIVE) && trace != TraceFormat.POLLUX) {
                throw new IllegalArgumentException("--tuner adaptive needs --trace pollux: only Pollux's jobs have the "
                        + "profiles a re-tune predicts with");
            }
            if (policies.contains(SacPolicy.NAME)) {
                // The live scheduler falls back to kube-default to keep scheduling; a benchmark row named sac must not.
                SacPolicy.fromConfiguredCheckpoint().fallbackReason().ifPresent(reason -> {
                    throw new IllegalArgumentException("sac: " + reason + " (--policy-setting sac.checkpoint=DIR)");
                });
            }
            Path file = FlagValues.traceFile(trace, traceFile);
            if (nodesFile != null) {
                OpenbGpuFiles.loadNodesOrExplain(nodesFile, "--nodes-file"); // a bad file stops here, with why
            }
            Path dir = out != null ? out
                    : Path.of("bench", "results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new BenchOptions(trace, file, nodes, shape, loads, policies, seeds, jobs, repeat,
                    fairShare ? fairSettings : null, fairReserveS, dir, tuners, tunerScaling, idleScaling, usage, preemptionCostS,
                    nodesFile, split, predictors, perJob);
        }
    }

    private static List<Double> loads(String flag, String v) {
        List<Double> out = new ArrayList<>();
        for (String s : list(flag, v)) {
            double d = number(flag, s);
            if (!(d > 0)) {
                throw new IllegalArgumentException("--load values must be positive, got " + s);
            }
            out.add(d);
        }
        return out;
    }

    private static List<String> policies(String flag, String v) {
        List<String> out = list(flag, v);
        for (String p : out) {
            if (!PolicyRegistry.names().contains(p)) {
                throw new IllegalArgumentException("unknown policy '" + p + "'; known: " + String.join(", ", PolicyRegistry.names()));
            }
        }
        return out;
    }

    /** Predictors in the order given, each once. */
    private static List<PredictorKind> predictors(String flag, String v) {
        return distinct(flag, v, PredictorKind::byCliName);
    }

    /** Modes in the order given, each once; {@code on} is {@code once}. */
    static List<TunerMode> tunerModes(String flag, String v) {
        return distinct(flag, v, TunerMode::parse);
    }

    /** A comma list read by {@code parse}, in the order given, each value once; a bad value's reason names the flag. */
    private static <T> List<T> distinct(String flag, String v, java.util.function.Function<String, T> parse) {
        java.util.LinkedHashSet<T> out = new java.util.LinkedHashSet<>();
        for (String s : list(flag, v)) {
            try {
                out.add(parse.apply(s));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(flag + ": " + e.getMessage());
            }
        }
        return List.copyOf(out);
    }

    /** on, off, or a comma list of them, each once, in the order given. */
    private static List<Boolean> onOffList(String flag, String v) {
        java.util.LinkedHashSet<Boolean> out = new java.util.LinkedHashSet<>();
        for (String s : list(flag, v)) {
            out.add(onOff(flag, s));
        }
        return List.copyOf(out);
    }

    private static boolean onOff(String flag, String v) {
        return switch (v) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException(flag + " takes on or off, got '" + v + "'");
        };
    }

    private static double nonNegativeSeconds(String flag, String v) {
        double d = number(flag, v);
        if (!(d >= 0)) {
            throw new IllegalArgumentException(flag + " takes a finite number of seconds ≥ 0, got '" + v + "'");
        }
        return d;
    }

    /** Like {@link FlagValues#positive} but says the unit (number already refuses NaN and infinities). */
    private static double positiveSeconds(String flag, String v) {
        double d = number(flag, v);
        if (!(d > 0)) {
            throw new IllegalArgumentException(flag + " takes a finite number of seconds > 0, got '" + v + "'");
        }
        return d;
    }

    /** Loads to run: the targets, or one NaN meaning "as recorded". */
    List<Double> loadsOrRecorded() {
        return loads.isEmpty() ? List.of(Double.NaN) : loads;
    }

    /**
     * The cluster: {@code --nodes} nodes of {@code --node-shape}, or the nodes of {@code --nodes-file} read by
     * scheduling-core's loader (a missing or bad file is an {@link IllegalArgumentException} saying why).
     */
    List<NodeSpec> cluster() {
        return nodesFile == null ? nodeShape.nodes(nodes)
                : OpenbGpuFiles.nodeSpecs(OpenbGpuFiles.loadNodesOrExplain(nodesFile, "--nodes-file"));
    }
}
