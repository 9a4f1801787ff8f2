package io.gantry.cli.adapt;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.GantryCli;
import io.gantry.cli.bench.ProgressBar;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.sac.LearningReplayPolicy;
import io.gantry.scheduling.sac.ReplayPromotion;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceFormat;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code gantry adapt}: does online learning adapt to a month it was not trained on (issue 20, item 4)? The same
 * shaped month is replayed from the same checkpoint frozen, learning without a gate, and learning behind the live
 * learner's promotion gate ({@link ReplayPromotion}); {@link AdaptReport} compares them job by job.
 */
public final class AdaptCommand implements GantryCli.Command {

    /** The three ways one seed's month is replayed, in the order they run. */
    enum Mode {
        FROZEN("frozen"), ONLINE("online"), GATED("gated");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** One seed's replays: the shaped jobs, each mode's result, and the gate's record. */
    record SeedRun(long seed, List<JobRequest> jobs, double offeredLoad, List<SimulationResult> results,
                   List<ReplayPromotion.Check> checks, List<ReplayPromotion.FollowUp> followUps, int onlineUpdates) {
    }

    private final PrintStream out;
    private final PrintStream err;

    public AdaptCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public String summary() {
        return "Philly October from the September policy: frozen vs online vs behind the promotion gate";
    }

    @Override
    public int run(String[] args) throws IOException {
        return CommandOptions.run("adapt", AdaptOptions.USAGE, args, AdaptOptions::parse, out, err, this::adapt);
    }

    private int adapt(AdaptOptions opts) throws IOException {
        Trace trace = opts.split().apply(TraceFormat.PHILLY.loader().load(opts.traceFile(), NodeShape.ALIBABA_G2));
        List<JobRequest> month = trace.jobs().stream().sorted(Comparator.comparingDouble(JobRequest::submitTime))
                .limit(opts.jobs() > 0 ? opts.jobs() : Long.MAX_VALUE).toList();
        List<NodeSpec> nodes = NodeShape.ALIBABA_G2.nodes(opts.nodes());
        err.printf(Locale.ROOT, "adapt: %d jobs of %s (split %s: %s), %d nodes, rho %.2f, seeds %s%n",
                month.size(), opts.traceFile(), opts.split().cliName(), opts.split().dates(), opts.nodes(),
                opts.load(), opts.seeds());
        ProgressBar bar = new ProgressBar(err, opts.seeds().size() * Mode.values().length);
        List<SeedRun> runs = new ArrayList<>();
        int index = 0;
        for (long seed : opts.seeds()) {
            WorkloadShaper.Shaped shaped = WorkloadShaper.shape(month, nodes, opts.load(), 0, seed);
            List<SimulationResult> results = new ArrayList<>();
            ReplayPromotion promotion = null;
            int onlineUpdates = 0;
            for (Mode mode : Mode.values()) {
                String label = String.format(Locale.ROOT, "%s seed %d", mode.label, seed);
                int i = index++;
                try (SacAgent agent = SacCheckpoint.load(opts.checkpoint())) {
                    SchedulingPolicy policy = switch (mode) {
                        case FROZEN -> SacPolicy.greedy(agent);
                        case ONLINE -> new LearningReplayPolicy(agent, opts.updatesPerTransition(), seed);
                        case GATED -> new LearningReplayPolicy(agent, opts.updatesPerTransition(), seed,
                                promotion = new ReplayPromotion(agent, nodes, opts.load(), opts.gate(),
                                        opts.checkEvery(), opts.checkJobs()));
                    };
                    SimulationResult r = new Simulator(nodes, policy, new HistoryDurationPredictor())
                            .run(shaped.jobs(), (done, total) -> bar.update(i, label, done, total));
                    Optional<String> fellBack = policy instanceof SacPolicy p ? p.fallbackReason()
                            : ((LearningReplayPolicy) policy).fallbackReason();
                    if (fellBack.isPresent()) {
                        throw new IllegalStateException(label + ": the policy fell back: " + fellBack.get());
                    }
                    if (!r.unfinished().isEmpty()) {
                        throw new IllegalStateException(label + " left " + r.unfinished().size() + " jobs unfinished");
                    }
                    if (policy instanceof LearningReplayPolicy l && mode == Mode.ONLINE) {
                        onlineUpdates = l.updates();
                    }
                    results.add(r);
                } finally {
                    if (promotion != null && mode == Mode.GATED) {
                        promotion.close();
                    }
                }
            }
            runs.add(new SeedRun(seed, shaped.jobs(), shaped.offeredLoad(), results, promotion.checks(),
                    promotion.followUps(), onlineUpdates));
        }
        bar.finish();
        AdaptReport report = new AdaptReport(opts, runs);
        report.write(opts.out());
        report.print(out);
        out.println("wrote " + opts.out());
        return 0;
    }
}
