package io.gantry.cli.bench;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.PrintingCommand;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.policy.SrptOraclePolicy;
import io.gantry.scheduling.predict.PredictorKind;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.fairness.FairShareTracker;
import io.gantry.scheduling.fairness.StarvationReservation;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.sim.RunMetrics;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.BadRow;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.WorkloadShaper;
import io.gantry.scheduling.trace.TraceFormat;
import io.gantry.scheduling.tuning.PolluxWorkloadTuning;
import io.gantry.scheduling.tuning.ResourceRightSizer;
import io.gantry.scheduling.tuning.TraceRightSizing;
import io.gantry.scheduling.tuning.TrainingTuner;
import io.gantry.scheduling.tuning.TunedJob;
import io.gantry.scheduling.tuning.TunerMetrics;
import io.gantry.scheduling.tuning.TunerMode;
import io.gantry.scheduling.tuning.AdaptiveRetuner;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.pollux.PolluxJobModel;
import io.gantry.scheduling.pollux.PolluxPolicy;
import io.gantry.scheduling.model.JobRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code gantry bench}: replay a real trace through every chosen policy at each load and seed, then tabulate and plot. */
public final class BenchCommand extends PrintingCommand {

    private static final int PLOT_POINTS = 1500;
    /** Marks a peer's method (pollux) in tables: a baseline to beat, not Gantry's. */
    static final String PEER_MARK = "†";
    /** The tuner column of a policy that sizes its jobs itself. */
    static final String OWN_SIZING = "own";

    public BenchCommand(PrintStream out, PrintStream err) {
        super(out, err);
    }

    @Override
    public int run(String[] args) throws IOException {
        if (args.length > 0 && (args[0].equals("tuner-real") || args[0].equals("tuner-profile"))) {
            try {
                return new RealTunerBench(out, err).run(args[0], java.util.Arrays.copyOfRange(args, 1, args.length));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            }
        }
        String usage = BenchOptions.USAGE.formatted(String.join(", ", PolicyRegistry.names()),
                TrainingTuner.Settings.DEFAULT.minScalingEfficiency());
        if (PolluxSuite.applies(args)) {
            return CommandOptions.run("bench", usage, args, PolluxSuite::plan, out, err, p -> PolluxSuite.run(p, this, out));
        }
        return CommandOptions.run("bench", usage, args, BenchOptions::parse, out, err, this::bench);
    }

    private int bench(BenchOptions opts) throws IOException {
        Files.createDirectories(opts.out());
        List<BenchRow> rows = run(opts);
        SummaryWriter.write(opts.out(), rows);
        printTable(rows, opts.fairShare(), opts.fairReserveS());
        out.println("wrote " + opts.out().resolve("summary.json") + ", summary.csv and PNG plots");
        return 0;
    }

    /** Runs every (load, seed, policy) replay, writes the plots, and returns the rows. */
    List<BenchRow> run(BenchOptions opts) throws IOException {
        Trace trace = loadTrace(opts);
        List<NodeSpec> nodes = opts.cluster();
        Resources capacity = opts.nodesFile() == null ? opts.nodeShape().capacity().times(opts.nodes())
                : nodes.stream().map(NodeSpec::capacity).reduce(Resources.ZERO, Resources::plus);
        double clusterGpus = opts.nodesFile() == null ? (double) opts.nodes() * opts.nodeShape().gpus() : capacity.gpus();
        List<Double> loads = opts.loadsOrRecorded();
        ProgressBar bar = new ProgressBar(err, loads.size() * opts.seeds().size() * runsPerJobs(opts));
        List<BenchRow> rows = new ArrayList<>();
        int runIndex = 0;
        PolluxWorkloadTuning polluxTuning = polluxTuning(opts);
        PerJobCsv perJob = opts.perJob() ? new PerJobCsv() : null;
        for (double load : loads) {
            Map<String, SimulationResult> firstSeedResults = new LinkedHashMap<>();
            for (long seed : opts.seeds()) {
                WorkloadShaper.Shaped shaped = WorkloadShaper.shape(trace.jobs(), nodes, load, opts.jobs(), opts.repeat(), seed);
                if (!shaped.unfit().isEmpty() && seed == opts.seeds().get(0) && load == loads.get(0)) {
                    err.printf("%d jobs fit no node of this cluster and are left out (first: %s)%n", shaped.unfit().size(),
                            String.join(", ", shaped.unfit().subList(0, Math.min(5, shaped.unfit().size()))));
                }
                for (TunerMode mode : opts.tuners()) {
                    // Tuning happens before queueing and does not depend on the policy: the same jobs go to each.
                    TraceRightSizing sizing = new TraceRightSizing();
                    List<TunedJob> tuned = polluxTuning != null
                            ? polluxTuning.apply(shaped.jobs(), opts.nodeShape(), mode)
                            : sizing.apply(shaped.jobs(), opts.usage(), new ResourceRightSizer(ResourceRightSizer.Settings.DEFAULT),
                            seed, mode.tunes());
                    List<JobRequest> jobs = tuned.stream().map(TunedJob::job).toList();
                    for (String policy : opts.policies()) {
                        if (!runs(policy, mode, opts)) {
                            continue;
                        }
                        for (Variant variant : variants(policy, mode, opts)) {
                            boolean idle = variant.idle();
                            PredictorKind predictor = variant.predictor();
                            final int index = runIndex;
                            String name = runName(predicted(policy, predictor), mode, idle, opts);
                            String label = String.format(Locale.ROOT, "%s ρ=%s seed %d", name, loadLabel(load, shaped.offeredLoad()), seed);
                            SchedulingPolicy scheduling = scheduling(policy, opts);
                            boolean ownSizing = scheduling instanceof ElasticPolicy;
                            AdaptiveRetuner retuner = mode == TunerMode.ADAPTIVE && !ownSizing
                                    ? polluxTuning.retuner(jobs, opts.nodeShape(), idle) : null;
                            Simulator sim = new Simulator(nodes, scheduling, predictor.create(),
                                    opts.fairShare(), mode.tunes() ? sizing : null).withPreemptionCost(opts.preemptionCostS())
                                    .withAdaptiveJobs(retuner);
                            SimulationResult result = sim.run(jobs, (done, total) -> bar.update(index, label, done, total));
                            if (!result.unfinished().isEmpty()) {
                                throw new IllegalStateException(name + " left " + result.unfinished().size() + " jobs unfinished");
                            }
                            List<TunedJob> ran = credited(tuned, retuner, scheduling);
                            BenchRow row = new BenchRow(opts.trace().cliName(), opts.traceFile().toString(), load, shaped.offeredLoad(), seed,
                                    predicted(policy, predictor), shaped.jobs().size(), shaped.unfit().size(),
                                    trace.badRows().size(),
                                    RunMetrics.of(result, clusterGpus), result.wallS(),
                                    TunerMetrics.of(ownSizing ? OWN_SIZING : tunerLabel(mode, idle), result, ran, capacity,
                                            (j, metric) -> polluxTuning != null && polluxTuning.reachesTarget(j, metric)),
                                    opts.preemptionCostS());
                            rows.add(row);
                            if (perJob != null) {
                                perJob.add(row, result);
                            }
                            if (seed == opts.seeds().get(0)) {
                                firstSeedResults.put(name, result);
                            }
                            runIndex++;
                        }
                    }
                }
            }
            plot(opts.out(), load, opts.seeds().get(0), firstSeedResults);
        }
        bar.finish();
        if (perJob != null) {
            perJob.write(opts.out());
        }
        return rows;
    }

    /** The policy, with the starvation reservation of {@code --fair-reserve} around it if asked for. */
    private static SchedulingPolicy scheduling(String policy, BenchOptions opts) {
        SchedulingPolicy scheduling = PolicyRegistry.create(policy);
        return Double.isNaN(opts.fairReserveS()) ? scheduling : new StarvationReservation(scheduling, opts.fairReserveS());
    }

    /** The trace's split, with how long loading took, its notes and its bad rows on stderr. */
    private Trace loadTrace(BenchOptions opts) throws IOException {
        long loadStart = System.nanoTime();
        Trace trace = opts.split().apply(opts.trace().loader().load(opts.traceFile(), opts.nodeShape()));
        err.printf(Locale.ROOT, "loaded %d jobs from %s (split %s: %s) in %.2f s%n", trace.jobs().size(), opts.traceFile(),
                opts.split().cliName(), opts.split().dates(), (System.nanoTime() - loadStart) / 1e9);
        for (String note : trace.notes()) {
            err.println("note: " + note);
        }
        reportBadRows(trace.badRows());
        return trace;
    }

    /**
     * The jobs with the metric their training earned where it is not the one they were tuned for: adaptive jobs'
     * and {@code pollux}'s, which change batch size as they run, by the batches they trained at.
     */
    private static List<TunedJob> credited(List<TunedJob> tuned, AdaptiveRetuner retuner, SchedulingPolicy scheduling) {
        java.util.function.ToDoubleFunction<String> metric = retuner != null ? retuner::finalMetric
                : scheduling instanceof ElasticPolicy e && e.jobModel() instanceof PolluxJobModel m ? m::finalMetric : null;
        return metric == null ? tuned : tuned.stream().map(t -> new TunedJob(t.job(), t.retryAs(), t.oomAfterS(),
                t.targetMetric(), metric.applyAsDouble(t.job().id()))).toList();
    }

    /** How many replays one (load, seed) pair takes: each policy under each tuner mode it runs under. */
    private static int runsPerJobs(BenchOptions opts) {
        int runs = 0;
        for (TunerMode mode : opts.tuners()) {
            for (String policy : opts.policies()) {
                runs += runs(policy, mode, opts) ? variants(policy, mode, opts).size() : 0;
            }
        }
        return runs;
    }

    /** The tuner of Pollux's workloads, from the profiles beside the trace file; none for the other traces. */
    private static PolluxWorkloadTuning polluxTuning(BenchOptions opts) {
        return opts.trace() == TraceFormat.POLLUX
                ? new PolluxWorkloadTuning(opts.traceFile(), TrainingTuner.fromProfiles(
                        PolluxWorkloadTuning.profilesDirFor(opts.traceFile()),
                        new TrainingTuner.Settings(opts.tunerScaling(), opts.nodeShape().gpus())))
                : null;
    }

    /**
     * Whether {@code policy} runs under tuner {@code mode}: a policy that sizes its jobs itself (pollux) ignores the
     * tuner, so it runs once, under the first mode.
     */
    private static boolean runs(String policy, TunerMode mode, BenchOptions opts) {
        return !policy.equals(PolluxPolicy.NAME) || mode == opts.tuners().get(0);
    }

    /**
     * The idle-scaling settings {@code policy} runs under in tuner {@code mode}: each of {@code --tuner-idle-scaling}'s
     * for adaptive jobs; only off otherwise (nothing else changes GPU counts while jobs run; pollux sizes its own).
     */
    private static List<Boolean> idleSettings(String policy, TunerMode mode, BenchOptions opts) {
        return mode == TunerMode.ADAPTIVE && !policy.equals(PolluxPolicy.NAME) ? opts.idleScaling()
                : List.of(mode == TunerMode.ADAPTIVE && opts.idleScaling().get(0));
    }

    /**
     * The policy as rows name it: with {@code @predictor} unless the predictor is the default history one, and an
     * oracle's mark when the predictor knows true durations.
     */
    static String predicted(String policy, PredictorKind predictor) {
        if (predictor == PredictorKind.HISTORY) {
            return policy;
        }
        return policy + "@" + predictor.cliName() + (predictor.oracle() ? "*" : "");
    }

    /** One replay of a policy under a tuner mode: with or without idle scaling, and with which duration predictor. */
    private record Variant(boolean idle, PredictorKind predictor) {
    }

    /** Every idle-scaling setting of {@code policy} in {@code mode} with every predictor, predictors innermost. */
    private static List<Variant> variants(String policy, TunerMode mode, BenchOptions opts) {
        List<Variant> out = new ArrayList<>();
        for (boolean idle : idleSettings(policy, mode, opts)) {
            for (PredictorKind predictor : opts.predictors()) {
                out.add(new Variant(idle, predictor));
            }
        }
        return out;
    }

    /** The tuner mode as summaries name it: {@code adaptive+idle} for adaptive jobs with idle scaling. */
    private static String tunerLabel(TunerMode mode, boolean idle) {
        return idle ? mode.cliName() + "+idle" : mode.cliName();
    }

    /** The run's name in plots and progress: the policy, with the tuner mode when several are raced. */
    private static String runName(String policy, TunerMode mode, boolean idle, BenchOptions opts) {
        if (policy.equals(PolluxPolicy.NAME)) {
            return policy + PEER_MARK;
        }
        boolean raced = opts.tuners().size() > 1 || (mode == TunerMode.ADAPTIVE && opts.idleScaling().size() > 1);
        return raced ? policy + "/" + tunerLabel(mode, idle) : policy;
    }

    private void reportBadRows(List<BadRow> bad) {
        if (bad.isEmpty()) {
            return;
        }
        err.println(bad.size() + " rows could not be parsed (counted as bad_rows):");
        bad.stream().limit(10).forEach(b -> err.println("  " + b));
        if (bad.size() > 10) {
            err.println("  ... and " + (bad.size() - 10) + " more");
        }
    }

    private static String loadLabel(double target, double offered) {
        return Double.isNaN(target) ? String.format(Locale.ROOT, "%.2f(recorded)", offered) : String.format(Locale.ROOT, "%.2f", target);
    }

    private void plot(Path dir, double load, long seed, Map<String, SimulationResult> results) throws IOException {
        String tag = Double.isNaN(load) ? "recorded" : String.format(Locale.ROOT, "rho%.2f", load);
        LineChart cdf = new LineChart("JCT CDF, " + tag + ", seed " + seed, "job completion time (s)", "fraction of jobs", true);
        LineChart alloc = new LineChart("GPU allocation over time, " + tag + ", seed " + seed, "time (s)", "allocated GPU share", false);
        for (Map.Entry<String, SimulationResult> e : results.entrySet()) {
            String name = e.getKey().equals(SrptOraclePolicy.NAME) ? e.getKey() + " (oracle)" : e.getKey();
            double[] jct = e.getValue().outcomes().stream().mapToDouble(JobOutcome::jctS).sorted().toArray();
            int n = Math.min(PLOT_POINTS, jct.length);
            double[] x = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                int k = (int) ((long) (i + 1) * jct.length / n) - 1;
                x[i] = jct[k];
                y[i] = (k + 1.0) / jct.length;
            }
            cdf.add(new LineChart.Series(name, x, y));
            alloc.add(downsampledSteps(name, e.getValue().allocationTimes(), e.getValue().gpuAllocRatios()));
        }
        cdf.write(dir.resolve("jct-cdf-" + tag + ".png"));
        alloc.write(dir.resolve("gpu-alloc-" + tag + ".png"));
    }

    /** Time-bucket means of a step function, so a plot of 100k changes stays readable. */
    private static LineChart.Series downsampledSteps(String name, double[] t, double[] v) {
        if (t.length < 2) {
            return new LineChart.Series(name, t, v);
        }
        double start = t[0];
        double end = t[t.length - 1];
        int buckets = Math.min(PLOT_POINTS / 3, t.length);
        double width = (end - start) / buckets;
        double[] x = new double[buckets];
        double[] y = new double[buckets];
        int j = 0;
        for (int b = 0; b < buckets; b++) {
            double lo = start + b * width;
            double hi = lo + width;
            double area = 0;
            while (j + 1 < t.length && t[j + 1] <= lo) {
                j++;
            }
            int k = j;
            double cur = lo;
            while (cur < hi && k < t.length) {
                double next = k + 1 < t.length ? Math.min(t[k + 1], hi) : hi;
                area += v[k] * Math.max(0, next - cur);
                cur = next;
                k++;
            }
            x[b] = lo + width / 2;
            y[b] = width > 0 ? area / width : v[j];
        }
        return new LineChart.Series(name, Arrays.copyOf(x, buckets), Arrays.copyOf(y, buckets));
    }

    private void printTable(List<BenchRow> rows, FairShareTracker.Settings fairShare, double reserveS) {
        out.printf("%-8s %-6s %-12s %-8s %5s %11s %11s %11s %9s %7s %7s %6s %7s %10s %11s %7s %8s %7s%n", "trace", "load",
                "policy", "tuner", "seeds", "avg_jct_s", "p99_jct_s", "avg_queue_s", "slowdown", "gpu_alloc", "node_cv", "jain",
                "ftf_rho", "gpu_hours", "makespan_s", "target", "restarts", "wall_s");
        Map<String, List<BenchRow>> groups = new LinkedHashMap<>();
        for (BenchRow r : rows) {
            groups.computeIfAbsent(r.targetLoad() + "|" + r.policy() + "|" + r.tuner().mode(), k -> new ArrayList<>()).add(r);
        }
        for (List<BenchRow> g : groups.values()) {
            BenchRow f = g.get(0);
            boolean oracle = f.policy().equals(SrptOraclePolicy.NAME) || f.policy().startsWith(SrptOraclePolicy.NAME + "@");
            String policy = oracle && !f.policy().endsWith("*") ? f.policy() + "*"
                    : f.policy().equals(PolluxPolicy.NAME) ? f.policy() + PEER_MARK : f.policy();
            out.printf(Locale.ROOT, "%-8s %-6s %-12s %-8s %5d %11.0f %11.0f %11.0f %9.2f %7.3f %7.3f %6.3f %7.2f %10.1f %11.0f %7.3f %8.2f %7.2f%n",
                    f.trace(), loadLabel(f.targetLoad(), f.offeredLoad()).replace("(recorded)", "r"), policy, f.tuner().mode(),
                    g.size(), mean(g, r -> r.m().avgJctS()), mean(g, r -> r.m().p99JctS()), mean(g, r -> r.m().avgQueueS()),
                    mean(g, r -> r.m().avgSlowdown()), mean(g, r -> r.m().gpuAllocRatio()), mean(g, r -> r.m().nodeCv()),
                    mean(g, r -> r.m().jainFairness()), mean(g, r -> r.m().maxFtfRho()), mean(g, r -> r.tuner().gpuHours()),
                    mean(g, r -> r.m().makespanS()), mean(g, r -> r.tuner().targetReachedRatio()),
                    mean(g, r -> r.m().restarts().perJob()), mean(g, BenchRow::wallS));
        }
        out.println("fair share " + (fairShare == null ? "off" : String.format(Locale.ROOT,
                "on (half-life %.0f s, weight %.0f, refresh %.0f s%s)", fairShare.halfLifeS(), fairShare.fairShareWeight(),
                fairShare.refreshIntervalS(), Double.isNaN(reserveS) ? "" : String.format(Locale.ROOT,
                        ", reservations after %.0f s", reserveS))) + "; jain = Jain's index over tenants' normalised service"
                + " (bench/README.md, Fairness)");
        out.println("(means over seeds; * srpt-oracle knows true durations: a reference floor, not deployable; † a peer's"
                + " method (Pollux, OSDI'21), not Gantry's: it sizes its jobs itself, tuner \"own\"; target = share of"
                + " jobs reaching their target metric; restarts = mean restarts per job, preemptions and resizes)");
    }

    private static double mean(List<BenchRow> g, java.util.function.ToDoubleFunction<BenchRow> f) {
        return g.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    @Override
    public String summary() {
        return "replay a trace through the baseline schedulers; writes summary.json, summary.csv and plots";
    }
}
