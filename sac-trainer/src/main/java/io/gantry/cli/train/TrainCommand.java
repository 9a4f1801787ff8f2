package io.gantry.cli.train;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.PrintingCommand;
import io.gantry.cli.TraceSplit;
import io.gantry.cli.bench.ProgressBar;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.sac.SacTraining;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.Trace;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code gantry train}: pre-train the SAC policy on trace replay; writes a CSV log, PNG learning curves and a checkpoint. */
public final class TrainCommand extends PrintingCommand {

    static final String CSV_HEADER = "episode,load,jobs,decisions,return,avg_jct_s,entropy,alpha,actor_loss,critic_loss,updates,"
            + "val_avg_jct_s";

    /** The git work tree whose commit checkpoints name. */
    private final Path repo;

    public TrainCommand(PrintStream out, PrintStream err) {
        this(out, err, Path.of("."));
    }

    TrainCommand(PrintStream out, PrintStream err, Path repo) {
        super(out, err);
        this.repo = repo;
    }

    @Override
    public int run(String[] args) throws IOException {
        return CommandOptions.run("train", TrainOptions.USAGE, args, TrainOptions::parse, out, err, o -> train(o, args));
    }

    private int train(TrainOptions opts, String[] args) throws IOException {
        CodeVersion version = CodeVersion.of(repo);
        if (!opts.latencyOnly() && !opts.allowDirty() && (version.dirty() || !version.known())) {
            err.println("gantry train: " + (version.known() ? version.refusal()
                    : repo.toAbsolutePath() + " is not a git work tree, so the checkpoint could name no commit;"
                    + " pass --allow-dirty to train anyway"));
            return 2;
        }
        Files.createDirectories(opts.out());
        Trace trace = opts.trace().loader().load(opts.traceFile(), NodeShape.ALIBABA_G2);
        List<JobRequest> jobs = trainingJobs(opts, trace);
        if (opts.latencyOnly()) {
            return latency(opts, jobs);
        }
        List<NodeSpec> nodes = NodeShape.ALIBABA_G2.nodes(opts.nodes());
        Validation validation = opts.validationJobs() == 0 ? null : new Validation(TraceSplit.VALIDATE.apply(trace).jobs(),
                nodes, opts.loads(), opts.validationJobs(), opts.seed());
        SacAgent agent;
        if (opts.init() == null) {
            agent = SacAgent.create(opts.settings(), opts.seed());
        } else {
            agent = SacCheckpoint.load(opts.init());
            err.println("continuing from " + opts.init());
        }
        SacTraining.Config config = new SacTraining.Config(jobs, nodes, opts.loads(), opts.episodes(), opts.episodeJobs(),
                opts.updatesPerDecision(), 2 * agent.settings().batchSize(), opts.seed(), agent.settings());
        List<SacTraining.EpisodeLog> logs = new ArrayList<>();
        List<double[]> validated = new ArrayList<>();
        ProgressBar bar = new ProgressBar(err, opts.episodes());
        long start = System.nanoTime();
        try (BufferedWriter csv = Files.newBufferedWriter(opts.out().resolve("train-log.csv"))) {
            csv.write(CSV_HEADER + "\n");
            if (validation != null) {
                validated.add(new double[] {0, validation.avgJctS(agent)});
                csv.write("0,,,,,,,,,,0," + fmt(validated.get(0)[1]) + "\n");
            }
            SacTraining.train(config, agent, log -> {
                logs.add(log);
                double val = validation == null ? Double.NaN : validation.avgJctS(agent);
                if (validation != null) {
                    validated.add(new double[] {log.episode(), val});
                }
                try {
                    csv.write(csvLine(log) + "," + (Double.isNaN(val) ? "" : fmt(val)) + "\n");
                    csv.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                bar.update(log.episode() - 1, String.format(Locale.ROOT, "episode %d: avg JCT %.0f s, validation %.0f s,"
                        + " α %.3f", log.episode(), log.avgJctS(), val, log.alpha()), 1, 1);
            });
        }
        bar.finish();
        double wallS = (System.nanoTime() - start) / 1e9;
        Path checkpoint = opts.out().resolve("checkpoint");
        Map<String, Object> meta = metadata(opts, args, wallS, version);
        if (validation != null) {
            meta.put("validation", validationInfo(opts, validation, validated));
        }
        SacCheckpoint.save(checkpoint, agent, meta);
        agent.close();
        TrainingCharts.write(opts.out(), logs, validated);
        out.printf(Locale.ROOT, "trained %d episodes on %d jobs of %s (split %s) in %.1f s; wrote %s, train-log.csv,"
                + " learning-curves-*.png%n", opts.episodes(), jobs.size(), opts.traceFile(), opts.split().cliName(), wallS,
                checkpoint);
        return 0;
    }

    private List<JobRequest> trainingJobs(TrainOptions opts, Trace trace) {
        List<JobRequest> jobs = new ArrayList<>(opts.split().apply(trace).jobs());
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime).thenComparing(JobRequest::id));
        if (opts.firstJobs() > 0 && opts.firstJobs() < jobs.size()) {
            jobs = new ArrayList<>(jobs.subList(0, opts.firstJobs()));
        }
        err.printf("training jobs: %d of %s, split %s (%s)%s%n", jobs.size(), opts.traceFile(), opts.split().cliName(),
                opts.split().dates(), opts.firstJobs() > 0 ? " (the first " + opts.firstJobs() + " in arrival order)" : "");
        return jobs;
    }

    private static Map<String, Object> validationInfo(TrainOptions o, Validation v, List<double[]> validated) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("split", TraceSplit.VALIDATE.cliName() + " (" + TraceSplit.VALIDATE.dates() + ")");
        m.put("window_jobs", v.jobs());
        m.put("loads", o.loads());
        m.put("window_seed", o.seed());
        m.put("before_training_avg_jct_s", validated.get(0)[1]);
        m.put("after_training_avg_jct_s", validated.get(validated.size() - 1)[1]);
        double[] best = validated.stream().min(Comparator.comparingDouble(p -> p[1])).orElseThrow();
        m.put("best_episode", (int) best[0]);
        m.put("best_avg_jct_s", best[1]);
        return m;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private int latency(TrainOptions opts, List<JobRequest> jobs) throws IOException {
        String ckpt = opts.init() == null ? SacPolicy.DEFAULT_CHECKPOINT : opts.init();
        SacPolicy policy = SacPolicy.fromCheckpoint(ckpt);
        if (policy.fallbackReason().isPresent()) {
            err.println("gantry train --latency: " + policy.fallbackReason().get());
            return 1;
        }
        StringBuilder report = new StringBuilder("decision latency of " + ckpt + " (one decide() round)\n");
        for (int[] shape : new int[][] {{13, 32}, {1000, 64}}) {
            String line = DecisionLatency.measure(policy, jobs, shape[0], shape[1], opts.seed()).line();
            out.println(line);
            report.append(line).append('\n');
        }
        Files.writeString(opts.out().resolve("latency.txt"), report.toString());
        return 0;
    }

    static String csvLine(SacTraining.EpisodeLog l) {
        return String.format(Locale.ROOT, "%d,%.2f,%d,%d,%.6f,%.3f,%.6f,%.6f,%.6f,%.6f,%d", l.episode(), l.load(), l.jobs(),
                l.decisions(), l.episodeReturn(), l.avgJctS(), l.policyEntropy(), l.alpha(), l.actorLoss(), l.criticLoss(),
                l.updates());
    }

    private static Map<String, Object> metadata(TrainOptions o, String[] args, double wallS, CodeVersion version) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "./gantry train " + String.join(" ", args));
        m.put("trace", o.trace().cliName());
        m.put("trace_file", o.traceFile().getFileName().toString());
        m.put("split", o.split().cliName() + " (" + o.split().dates() + ")");
        m.put("first_jobs", o.firstJobs());
        m.put("loads", o.loads());
        m.put("episodes", o.episodes());
        m.put("episode_jobs", o.episodeJobs());
        m.put("updates_per_decision", o.updatesPerDecision());
        m.put("seed", o.seed());
        m.put("nodes", o.nodes());
        m.put("init", o.init() == null ? "fresh" : o.init());
        m.put("code_version", version.label());
        m.put("dirty", version.dirty() || !version.known());
        if (version.dirty()) {
            m.put("uncommitted_changes", version.changes());
        }
        m.put("training_wall_s", Math.round(wallS * 10) / 10.0);
        return m;
    }

    @Override
    public String summary() {
        return "pre-train the SAC policy on trace replay; writes train-log.csv, learning curves and a checkpoint";
    }
}
