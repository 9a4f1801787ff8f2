package io.gantry.cli.train;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.PrintingCommand;
import io.gantry.cli.bench.LineChart;
import io.gantry.cli.bench.ProgressBar;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.sac.SacSettings;
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
import java.util.function.ToDoubleFunction;

/** {@code gantry train}: pre-train the SAC policy on trace replay; writes a CSV log, PNG learning curves and a checkpoint. */
public final class TrainCommand extends PrintingCommand {

    static final String CSV_HEADER = "episode,load,jobs,decisions,return,avg_jct_s,entropy,alpha,actor_loss,critic_loss,updates";

    public TrainCommand(PrintStream out, PrintStream err) {
        super(out, err);
    }

    @Override
    public int run(String[] args) throws IOException {
        return CommandOptions.run("train", TrainOptions.USAGE, args, TrainOptions::parse, out, err, o -> train(o, args));
    }

    private int train(TrainOptions opts, String[] args) throws IOException {
        Files.createDirectories(opts.out());
        List<JobRequest> jobs = trainingJobs(opts);
        if (opts.latencyOnly()) {
            return latency(opts, jobs);
        }
        List<NodeSpec> nodes = NodeShape.ALIBABA_G2.nodes(opts.nodes());
        SacAgent agent;
        if (opts.init() == null) {
            agent = SacAgent.create(SacSettings.DEFAULT, opts.seed());
        } else {
            agent = SacCheckpoint.load(opts.init());
            err.println("continuing from " + opts.init());
        }
        SacTraining.Config config = new SacTraining.Config(jobs, nodes, opts.loads(), opts.episodes(), opts.episodeJobs(),
                opts.updatesPerDecision(), 2 * agent.settings().batchSize(), opts.seed(), agent.settings());
        List<SacTraining.EpisodeLog> logs = new ArrayList<>();
        ProgressBar bar = new ProgressBar(err, opts.episodes());
        long start = System.nanoTime();
        try (BufferedWriter csv = Files.newBufferedWriter(opts.out().resolve("train-log.csv"))) {
            csv.write(CSV_HEADER + "\n");
            SacTraining.train(config, agent, log -> {
                logs.add(log);
                try {
                    csv.write(csvLine(log) + "\n");
                    csv.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                bar.update(log.episode() - 1, String.format(Locale.ROOT, "episode %d: avg JCT %.0f s, entropy %.2f, α %.3f",
                        log.episode(), log.avgJctS(), log.policyEntropy(), log.alpha()), 1, 1);
            });
        }
        bar.finish();
        double wallS = (System.nanoTime() - start) / 1e9;
        Path checkpoint = opts.out().resolve("checkpoint");
        SacCheckpoint.save(checkpoint, agent, metadata(opts, args, wallS));
        agent.close();
        plot(opts.out(), logs);
        out.printf(Locale.ROOT, "trained %d episodes on %d jobs of %s in %.1f s; wrote %s, train-log.csv, learning-curves-*.png%n",
                opts.episodes(), jobs.size(), opts.traceFile(), wallS, checkpoint);
        return 0;
    }

    private List<JobRequest> trainingJobs(TrainOptions opts) {
        Trace trace = opts.trace().loader().load(opts.traceFile(), NodeShape.ALIBABA_G2);
        List<JobRequest> jobs = new ArrayList<>(trace.jobs());
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime).thenComparing(JobRequest::id));
        if (opts.firstJobs() > 0 && opts.firstJobs() < jobs.size()) {
            jobs = new ArrayList<>(jobs.subList(0, opts.firstJobs()));
        }
        err.printf("training jobs: %d of %s%s%n", jobs.size(), opts.traceFile(),
                opts.firstJobs() > 0 ? " (the first " + opts.firstJobs() + " in arrival order)" : "");
        return jobs;
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

    private static Map<String, Object> metadata(TrainOptions o, String[] args, double wallS) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "./gantry train " + String.join(" ", args));
        m.put("trace", o.trace().cliName());
        m.put("trace_file", o.traceFile().getFileName().toString());
        m.put("first_jobs", o.firstJobs());
        m.put("loads", o.loads());
        m.put("episodes", o.episodes());
        m.put("episode_jobs", o.episodeJobs());
        m.put("updates_per_decision", o.updatesPerDecision());
        m.put("seed", o.seed());
        m.put("nodes", o.nodes());
        m.put("init", o.init() == null ? "fresh" : o.init());
        m.put("code_version", codeVersion());
        m.put("training_wall_s", Math.round(wallS * 10) / 10.0);
        return m;
    }

    /** The git commit of the working tree, with "-dirty" when the SAC sources differ from it; "unknown" outside git. */
    private static String codeVersion() {
        try {
            String head = git("rev-parse", "--short", "HEAD");
            String dirty = git("status", "--porcelain", "--", "scheduling-core/src/main/java/io/gantry/scheduling/sac");
            return head.isEmpty() ? "unknown" : head + (dirty.isEmpty() ? "" : "-dirty");
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    private static String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes()).trim();
        return p.waitFor() == 0 ? s : "";
    }

    private static void plot(Path dir, List<SacTraining.EpisodeLog> logs) throws IOException {
        chart(dir, "jct", "average JCT per training episode", "average JCT (s)", logs, Map.of("avg JCT", SacTraining.EpisodeLog::avgJctS));
        chart(dir, "return", "episode return", "return", logs, Map.of("return", SacTraining.EpisodeLog::episodeReturn));
        Map<String, ToDoubleFunction<SacTraining.EpisodeLog>> ea = new LinkedHashMap<>();
        ea.put("policy entropy (nats)", SacTraining.EpisodeLog::policyEntropy);
        ea.put("alpha", SacTraining.EpisodeLog::alpha);
        chart(dir, "entropy-alpha", "entropy and temperature", "value", logs, ea);
        Map<String, ToDoubleFunction<SacTraining.EpisodeLog>> losses = new LinkedHashMap<>();
        losses.put("critic loss", SacTraining.EpisodeLog::criticLoss);
        losses.put("actor loss", SacTraining.EpisodeLog::actorLoss);
        chart(dir, "losses", "mean losses per episode", "loss", logs, losses);
    }

    private static void chart(Path dir, String tag, String title, String yLabel, List<SacTraining.EpisodeLog> logs,
                              Map<String, ToDoubleFunction<SacTraining.EpisodeLog>> series) throws IOException {
        LineChart c = new LineChart(title, "episode", yLabel, false);
        for (Map.Entry<String, ToDoubleFunction<SacTraining.EpisodeLog>> e : series.entrySet()) {
            List<double[]> pts = new ArrayList<>();
            for (SacTraining.EpisodeLog l : logs) {
                double y = e.getValue().applyAsDouble(l);
                if (Double.isFinite(y)) {
                    pts.add(new double[] {l.episode(), y});
                }
            }
            c.add(new LineChart.Series(e.getKey(), pts.stream().mapToDouble(p -> p[0]).toArray(),
                    pts.stream().mapToDouble(p -> p[1]).toArray()));
        }
        c.write(dir.resolve("learning-curves-" + tag + ".png"));
    }

    @Override
    public String summary() {
        return "pre-train the SAC policy on trace replay; writes train-log.csv, learning curves and a checkpoint";
    }
}
