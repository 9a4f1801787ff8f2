package io.gantry.cli.benchfrag;

import io.gantry.cli.FlagValues;
import io.gantry.scheduling.gpushare.GpuSharePolicies;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The flags of {@code gantry bench-frag}, validated; a mistake is an {@link IllegalArgumentException} naming the flag. */
record BenchFragOptions(Path pods, Path nodesFile, List<String> policies, List<Long> seeds, double arrivalRatio,
                        Path out) {

    static final String USAGE = """
            usage: gantry bench-frag [--pods FILE] [--nodes-file FILE] [--policies LIST] [--seeds LIST]
                                     [--arrive PERCENT] [--out DIR]
              the FGD paper's protocol (Weng et al., ATC'23, §5.1): pods drawn with the seed from the pod list
              arrive one by one, never leaving, until arrived GPU requests reach 130%% of the cluster's GPUs;
              the GPU allocation ratio and the fragmentation are recorded at every 1%% of arrived capacity
              --pods        a pod list in the openb format (default openb_pod_list_default.csv)
              --nodes-file  a node list in the openb format (default the shipped openb_node_list_gpu_node.csv)
              --policies    comma list (default all): %s
              --seeds       comma list of seeds (default 42..51, the simulator's ten)
              --arrive      where arrivals stop, in percent of cluster GPUs (default 130)
              --out         output folder (default bench/results/frag-<timestamp>): frag.csv, summary.json,
                            frag-<policy>.png
            """;

    static BenchFragOptions parse(String[] args) {
        Path dir = OpenbGpuFiles.traceDir();
        Path pods = dir.resolve("openb_pod_list_default.csv");
        Path nodes = dir.resolve(OpenbGpuFiles.GPU_NODE_LIST);
        List<String> policies = GpuSharePolicies.names();
        List<Long> seeds = new ArrayList<>();
        for (long s = 42; s < 52; s++) {
            seeds.add(s);
        }
        double ratio = 1.3;
        Path out = null;
        for (FlagValues.Flag f : FlagValues.read(args, Set.of())) {
            String flag = f.name();
            String v = f.value();
            switch (flag) {
                case "--pods" -> pods = existing(flag, v);
                case "--nodes-file" -> nodes = existing(flag, v);
                case "--policies" -> policies = known(FlagValues.list(flag, v));
                case "--seeds" -> seeds = FlagValues.seeds(flag, v);
                case "--arrive" -> ratio = FlagValues.positiveInt(flag, v) / 100.0;
                case "--out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
        }
        if (out == null) {
            out = Path.of("bench", "results", "frag-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new BenchFragOptions(pods, nodes, policies, seeds, ratio, out);
    }

    private static Path existing(String flag, String v) {
        Path p = Path.of(v);
        if (!p.toFile().isFile()) {
            throw new IllegalArgumentException(flag + ": file not found: " + v);
        }
        return p;
    }

    private static List<String> known(List<String> names) {
        for (String n : names) {
            if (!GpuSharePolicies.names().contains(n)) {
                throw new IllegalArgumentException("--policies: unknown policy '" + n + "'; known: "
                        + String.join(", ", GpuSharePolicies.names()));
            }
        }
        return names;
    }
}
