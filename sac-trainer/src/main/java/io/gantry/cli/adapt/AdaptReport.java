package io.gantry.cli.adapt;

import io.gantry.cli.adapt.AdaptCommand.Mode;
import io.gantry.cli.adapt.AdaptCommand.SeedRun;
import io.gantry.cli.bench.LineChart;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.sac.ReplayPromotion;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What {@code gantry adapt} reports. Every job appears in all three replays of its seed, so the modes are compared
 * job by job: per job in submit order ({@code jobs.csv}), its rolling average JCT ({@code rolling-jct-seed<S>.png}),
 * and over the last third of the jobs by submit order, where learning has had the most to learn from: issue 20's
 * bar is the gated run's average JCT there at least 5% below the frozen run's, with no promoted version worse than
 * its predecessor on the next check set.
 */
final class AdaptReport {

    /** Least gain of the gated run's last third over the frozen run's (issue 20). */
    static final double BAR_GAIN = 0.05;

    /** One seed's figures. {@code jct[mode][i]} is job i's JCT, jobs in submit order. */
    record SeedFigures(SeedRun run, double[][] jct) {

        double avg(Mode m, int from) {
            double sum = 0;
            for (int i = from; i < jct[m.ordinal()].length; i++) {
                sum += jct[m.ordinal()][i];
            }
            return sum / (jct[m.ordinal()].length - from);
        }

        int lastThird() {
            return 2 * jct[0].length / 3;
        }

        /** (frozen − mode) ÷ frozen over the last third: positive when the mode is faster. */
        double lastThirdGain(Mode m) {
            double frozen = avg(Mode.FROZEN, lastThird());
            return (frozen - avg(m, lastThird())) / frozen;
        }

        long worseFollowUps() {
            return run.followUps().stream().filter(ReplayPromotion.FollowUp::worse).count();
        }

        long promotions() {
            return run.checks().stream().filter(c -> c.result().promote()).count();
        }
    }

    private final AdaptOptions opts;
    private final List<SeedFigures> seeds = new ArrayList<>();

    AdaptReport(AdaptOptions opts, List<SeedRun> runs) {
        this.opts = opts;
        for (SeedRun run : runs) {
            double[][] jct = new double[Mode.values().length][];
            for (Mode m : Mode.values()) {
                jct[m.ordinal()] = jctsInOrder(run.jobs(), run.results().get(m.ordinal()));
            }
            seeds.add(new SeedFigures(run, jct));
        }
    }

    List<SeedFigures> seeds() {
        return List.copyOf(seeds);
    }

    private static double[] jctsInOrder(List<JobRequest> jobs, SimulationResult result) {
        Map<String, Double> byId = new HashMap<>();
        for (JobOutcome o : result.outcomes()) {
            byId.put(o.id(), o.jctS());
        }
        double[] out = new double[jobs.size()];
        for (int i = 0; i < out.length; i++) {
            Double j = byId.get(jobs.get(i).id());
            if (j == null) {
                throw new IllegalStateException("job " + jobs.get(i).id() + " has no outcome");
            }
            out[i] = j;
        }
        return out;
    }

    /** Mean over seeds of the last-third gain of {@code m}. */
    double meanLastThirdGain(Mode m) {
        return seeds.stream().mapToDouble(s -> s.lastThirdGain(m)).average().orElse(Double.NaN);
    }

    boolean barMet() {
        return meanLastThirdGain(Mode.GATED) >= BAR_GAIN && seeds.stream().allMatch(s -> s.worseFollowUps() == 0);
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder jobs = new StringBuilder("seed,job_id,submit_s,jct_frozen_s,jct_online_s,jct_gated_s\n");
        StringBuilder checks = new StringBuilder("seed,completed_jobs,at_s,current,p_value,w_plus,improvement,"
                + "candidate_avg_jct_s,current_avg_jct_s,promoted\n");
        for (SeedFigures s : seeds) {
            List<JobRequest> list = s.run().jobs();
            for (int i = 0; i < list.size(); i++) {
                jobs.append(String.format(Locale.ROOT, "%d,%s,%.1f,%.1f,%.1f,%.1f%n", s.run().seed(), list.get(i).id(),
                        list.get(i).submitTime(), s.jct()[0][i], s.jct()[1][i], s.jct()[2][i]));
            }
            for (ReplayPromotion.Check c : s.run().checks()) {
                checks.append(String.format(Locale.ROOT, "%d,%d,%.1f,%s,%.5f,%.1f,%.5f,%.1f,%.1f,%s%n", s.run().seed(),
                        c.completedJobs(), c.atS(), c.current(), c.result().pValue(), c.result().wPlus(),
                        c.result().improvement(), c.result().candidateAvgJctS(), c.result().currentAvgJctS(),
                        c.result().promote()));
            }
            chart(s).write(dir.resolve("rolling-jct-seed" + s.run().seed() + ".png"));
        }
        Files.writeString(dir.resolve("jobs.csv"), jobs);
        Files.writeString(dir.resolve("checks.csv"), checks);
        Files.writeString(dir.resolve("summary.json"), json());
    }

    private LineChart chart(SeedFigures s) {
        LineChart chart = new LineChart(String.format(Locale.ROOT, "Philly %s, %d nodes, rho %.2f, seed %d: rolling"
                        + " average JCT over %d jobs", opts.split().cliName(), opts.nodes(), opts.load(), s.run().seed(),
                opts.rollingJobs()), "submit time (days)", "avg JCT of the last jobs (h)", false);
        List<JobRequest> jobs = s.run().jobs();
        for (Mode m : Mode.values()) {
            double[] jct = s.jct()[m.ordinal()];
            double[] x = new double[jct.length];
            double[] y = new double[jct.length];
            double window = 0;
            for (int i = 0; i < jct.length; i++) {
                window += jct[i] - (i >= opts.rollingJobs() ? jct[i - opts.rollingJobs()] : 0);
                x[i] = jobs.get(i).submitTime() / 86_400;
                y[i] = window / Math.min(i + 1, opts.rollingJobs()) / 3600;
            }
            // Without a promotion the gated run is the frozen one, drawn over it: the legend says so.
            String label = m.label;
            if (m == Mode.GATED) {
                label = s.promotions() == 0 ? "gated = frozen" : "gated, " + s.promotions() + " prom.";
            }
            chart.add(new LineChart.Series(label, x, y));
        }
        return chart;
    }

    private String json() {
        StringJoiner perSeed = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (SeedFigures s : seeds) {
            StringJoiner followUps = new StringJoiner(", ", "[", "]");
            for (ReplayPromotion.FollowUp f : s.run().followUps()) {
                followUps.add(String.format(Locale.ROOT, "{\"promoted\": \"%s\", \"replaced\": \"%s\", \"at_s\": %.1f,"
                                + " \"promoted_avg_jct_s\": %.1f, \"replaced_avg_jct_s\": %.1f, \"worse\": %s}",
                        f.promoted(), f.replaced(), f.atS(), f.promotedAvgJctS(), f.replacedAvgJctS(), f.worse()));
            }
            int third = s.lastThird();
            perSeed.add(String.format(Locale.ROOT, "{\"seed\": %d, \"jobs\": %d, \"offered_load\": %.4f,"
                            + " \"avg_jct_s\": {\"frozen\": %.1f, \"online\": %.1f, \"gated\": %.1f},"
                            + " \"last_third_avg_jct_s\": {\"frozen\": %.1f, \"online\": %.1f, \"gated\": %.1f},"
                            + " \"last_third_gain\": {\"online\": %.5f, \"gated\": %.5f}, \"online_updates\": %d,"
                            + " \"checks\": %d, \"promotions\": %d, \"worse_follow_ups\": %d, \"follow_ups\": %s}",
                    s.run().seed(), s.run().jobs().size(), s.run().offeredLoad(), s.avg(Mode.FROZEN, 0),
                    s.avg(Mode.ONLINE, 0), s.avg(Mode.GATED, 0), s.avg(Mode.FROZEN, third), s.avg(Mode.ONLINE, third),
                    s.avg(Mode.GATED, third), s.lastThirdGain(Mode.ONLINE), s.lastThirdGain(Mode.GATED),
                    s.run().onlineUpdates(), s.run().checks().size(), s.promotions(), s.worseFollowUps(),
                    followUps));
        }
        return String.format(Locale.ROOT, "{\n  \"trace_file\": \"%s\", \"split\": \"%s\", \"nodes\": %d, \"load\": %.3f,"
                        + " \"checkpoint\": \"%s\", \"updates_per_transition\": %s, \"check_every\": %d,"
                        + " \"check_jobs\": %d, \"check_windows\": %d, \"check_alpha\": %s,"
                        + " \"check_min_improvement\": %s,\n  \"seeds\": %s,\n  \"mean_last_third_gain\":"
                        + " {\"online\": %.5f, \"gated\": %.5f}, \"bar_gain\": %s, \"bar_met\": %s\n}\n",
                opts.traceFile(), opts.split().cliName(), opts.nodes(), opts.load(), opts.checkpoint(),
                opts.updatesPerTransition(), opts.checkEvery(), opts.checkJobs(), opts.gate().windows(),
                opts.gate().alpha(), opts.gate().minImprovement(), perSeed, meanLastThirdGain(Mode.ONLINE),
                meanLastThirdGain(Mode.GATED), BAR_GAIN, barMet());
    }

    void print(PrintStream out) {
        out.printf("%-5s %6s %12s %12s %12s %12s %12s %12s %6s %6s %6s%n", "seed", "jobs", "frozen_s", "online_s",
                "gated_s", "frozen_3/3", "online_3/3", "gated_3/3", "checks", "promo", "worse");
        for (SeedFigures s : seeds) {
            int third = s.lastThird();
            out.printf(Locale.ROOT, "%-5d %6d %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f %6d %6d %6d%n", s.run().seed(),
                    s.run().jobs().size(), s.avg(Mode.FROZEN, 0), s.avg(Mode.ONLINE, 0), s.avg(Mode.GATED, 0),
                    s.avg(Mode.FROZEN, third), s.avg(Mode.ONLINE, third), s.avg(Mode.GATED, third),
                    s.run().checks().size(), s.promotions(), s.worseFollowUps());
        }
        out.printf(Locale.ROOT, "last third, mean over seeds: online %+.1f%%, gated %+.1f%% below frozen (bar: gated"
                        + " >= %.0f%% below, no worse follow-up): %s%n", 100 * meanLastThirdGain(Mode.ONLINE),
                100 * meanLastThirdGain(Mode.GATED), 100 * BAR_GAIN, barMet() ? "met" : "NOT met");
    }
}
