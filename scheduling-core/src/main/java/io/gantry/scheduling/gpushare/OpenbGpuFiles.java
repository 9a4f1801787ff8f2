package io.gantry.scheduling.gpushare;

import io.gantry.scheduling.trace.BadRow;
import io.gantry.scheduling.trace.CsvTable;
import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Loads the Alibaba GPU 2023 ("openb") node and pod lists with what GPU sharing needs: the GPU model of each node and
 * the {@code gpu_spec} of each pod (the older {@code OpenbNodeListLoader} keeps node totals only). The column meanings
 * are those of {@code ../shared/traces/alibaba-gpu-v2023-openb/README.md}. A row that does not parse is reported as a
 * {@link BadRow}, never dropped silently. The {@code multigpu} variants have no {@code gpu_spec} column: their pods
 * accept any model.
 */
public final class OpenbGpuFiles {

    /** The shipped list of the 1,213 GPU nodes (6,212 GPUs), the cluster of the FGD paper. */
    public static final String GPU_NODE_LIST = "openb_node_list_gpu_node.csv";

    private OpenbGpuFiles() {
    }

    public static Path traceDir() {
        return SharedTraces.tracesDir().resolve("alibaba-gpu-v2023-openb");
    }

    public static List<GpuNode> loadNodes(Path file, List<BadRow> badRows) {
        List<GpuNode> nodes = new ArrayList<>();
        String name = file.getFileName().toString();
        for (CsvTable.Row row : CsvTable.read(file, "sn", "cpu_milli", "memory_mib", "gpu", "model")) {
            try {
                nodes.add(new GpuNode(row.get("sn"), whole(row, "cpu_milli"), whole(row, "memory_mib"), whole(row, "gpu"),
                        row.get("model")));
            } catch (IllegalArgumentException e) {
                badRows.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        return nodes;
    }

    public static List<GpuPod> loadPods(Path file, List<BadRow> badRows) {
        List<GpuPod> pods = new ArrayList<>();
        String name = file.getFileName().toString();
        for (CsvTable.Row row : CsvTable.read(file, "name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli")) {
            try {
                String spec = row.columns().containsKey("gpu_spec") ? row.get("gpu_spec") : "";
                PodShape shape = new PodShape(whole(row, "cpu_milli"), whole(row, "num_gpu"), whole(row, "gpu_milli"), spec);
                pods.add(new GpuPod(row.get("name"), shape, whole(row, "memory_mib")));
            } catch (IllegalArgumentException e) {
                badRows.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        return pods;
    }

    /**
     * A node list given by a user ({@code --nodes-file}, a service's node-list option named {@code what}): its nodes,
     * or an {@link IllegalArgumentException} naming the file and why (missing, not in the trace's format, a bad row,
     * no node at all).
     */
    public static List<GpuNode> loadNodesOrExplain(Path file, String what) {
        List<GpuNode> nodes = orExplain(file, what, "sn,cpu_milli,memory_mib,gpu,model", OpenbGpuFiles::loadNodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException(what + ": " + file + " lists no node");
        }
        return nodes;
    }

    /** A pod list given by a user, as {@link #loadNodesOrExplain} for nodes. */
    public static List<GpuPod> loadPodsOrExplain(Path file, String what) {
        return orExplain(file, what, "name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec]", OpenbGpuFiles::loadPods);
    }

    /** The nodes as the scheduling model counts them: GPUs in milli, CPU in millicores, memory in MiB. */
    public static List<NodeSpec> nodeSpecs(List<GpuNode> nodes) {
        return nodes.stream().map(n -> new NodeSpec(n.name(), new Resources(n.gpus() * 1000L, n.cpuMilli(),
                n.memoryMib()))).toList();
    }

    private static <T> List<T> orExplain(Path file, String what, String columns,
                                         BiFunction<Path, List<BadRow>, List<T>> loader) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(what + ": no such file " + file.toAbsolutePath());
        }
        List<BadRow> bad = new ArrayList<>();
        List<T> rows;
        try {
            rows = loader.apply(file, bad);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + ": " + file + " is not a list in the trace's format (" + columns
                    + "): " + e.getMessage(), e);
        }
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException(what + ": " + bad.size() + " bad row(s) in " + file + ", first: "
                    + bad.get(0));
        }
        return rows;
    }

    private static int whole(CsvTable.Row row, String column) {
        double v = row.number(column);
        if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(column + " must be a whole number, got " + row.get(column));
        }
        return (int) v;
    }
}
