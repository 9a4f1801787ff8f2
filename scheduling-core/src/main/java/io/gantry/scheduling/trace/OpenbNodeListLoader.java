package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Alibaba GPU 2023 node lists ({@code openb_node_list_*.csv}: sn, cpu_milli, memory_mib, gpu, model) as node specs. */
public final class OpenbNodeListLoader {

    private OpenbNodeListLoader() {
    }

    public static List<NodeSpec> load(Path file, List<BadRow> badRows) {
        List<NodeSpec> nodes = new ArrayList<>();
        String name = file.getFileName().toString();
        for (CsvTable.Row row : CsvTable.read(file, "sn", "cpu_milli", "memory_mib", "gpu")) {
            try {
                Resources cap = new Resources(Math.round(row.number("gpu") * 1000), Math.round(row.number("cpu_milli")),
                        Math.round(row.number("memory_mib")));
                nodes.add(new NodeSpec(row.get("sn"), cap));
            } catch (IllegalArgumentException e) {
                badRows.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        return nodes;
    }
}
