package io.gantry.cli.benchfrag;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.PrintingCommand;
import io.gantry.cli.bench.ProgressBar;
import io.gantry.scheduling.gpushare.FragCurve;
import io.gantry.scheduling.gpushare.FragProtocol;
import io.gantry.scheduling.gpushare.GpuNode;
import io.gantry.scheduling.gpushare.GpuPod;
import io.gantry.scheduling.gpushare.GpuSharePolicies;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import io.gantry.scheduling.gpushare.TargetWorkload;
import io.gantry.scheduling.trace.BadRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code gantry bench-frag}: the FGD paper's GPU-sharing protocol on the real Alibaba cluster, every chosen policy on
 * every seed, then the table at 100% and at the last percent, {@code frag.csv}, {@code summary.json} and the plots.
 */
public final class BenchFragCommand extends PrintingCommand {

    public BenchFragCommand(PrintStream out, PrintStream err) {
        super(out, err);
    }

    @Override
    public int run(String[] args) throws IOException {
        String usage = BenchFragOptions.USAGE.formatted(String.join(", ", GpuSharePolicies.names()));
        return CommandOptions.run("bench-frag", usage, args, BenchFragOptions::parse, out, err, this::benchFrag);
    }

    private int benchFrag(BenchFragOptions opts) throws IOException {
        List<BadRow> bad = new ArrayList<>();
        List<GpuNode> nodes = OpenbGpuFiles.loadNodes(opts.nodesFile(), bad);
        List<GpuPod> pods = OpenbGpuFiles.loadPods(opts.pods(), bad);
        bad.forEach(b -> err.println("bad row: " + b));
        if (nodes.isEmpty() || pods.isEmpty()) {
            err.println("gantry bench-frag: no usable " + (nodes.isEmpty() ? "node in " + opts.nodesFile() : "pod in " + opts.pods()));
            return 2;
        }
        err.printf(Locale.ROOT, "%d nodes (%d GPUs) from %s, %d pods from %s%n", nodes.size(),
                nodes.stream().mapToInt(GpuNode::gpus).sum(), opts.nodesFile(), pods.size(), opts.pods());
        List<PolicyRuns> runs = runAll(opts, nodes, pods);
        Files.createDirectories(opts.out());
        int top = (int) Math.round(opts.arrivalRatio() * 100);
        FragOutputs.writeCsv(opts.out().resolve("frag.csv"), runs);
        FragOutputs.writeSummary(opts.out().resolve("summary.json"), runs, top, opts.pods().toString(),
                opts.nodesFile().toString());
        FragOutputs.writePlots(opts.out(), runs);
        FragOutputs.printTable(out, runs, top);
        out.println("wrote " + opts.out().resolve("summary.json") + ", frag.csv and PNG plots");
        return 0;
    }

    private List<PolicyRuns> runAll(BenchFragOptions opts, List<GpuNode> nodes, List<GpuPod> pods) {
        // The fragmentation is reported against the pod list's whole shape mix, whatever the policy itself assumes.
        FragProtocol protocol = new FragProtocol(nodes, pods, TargetWorkload.typicalPods(pods, 1.0), opts.arrivalRatio());
        ProgressBar bar = new ProgressBar(err, opts.policies().size() * opts.seeds().size());
        List<PolicyRuns> runs = new ArrayList<>();
        int index = 0;
        for (String policy : opts.policies()) {
            List<FragCurve> curves = new ArrayList<>();
            for (long seed : opts.seeds()) {
                int run = index++;
                String label = policy + " seed " + seed;
                curves.add(protocol.run(GpuSharePolicies.create(policy, pods, seed), seed, null,
                        (done, total) -> bar.update(run, label, done, total)));
            }
            runs.add(new PolicyRuns(policy, opts.seeds(), curves));
        }
        bar.finish();
        return runs;
    }

    @Override
    public String summary() {
        return "GPU-sharing placement on the Alibaba GPU 2023 cluster, FGD's protocol (allocation at 100% / 130% arrived)";
    }
}
