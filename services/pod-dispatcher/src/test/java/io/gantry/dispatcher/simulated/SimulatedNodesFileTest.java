package io.gantry.dispatcher.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gantry.simulated-cluster.nodes-file}: the trace's node list read by scheduling-core's loader, or a clear refusal. */
class SimulatedNodesFileTest {

    @TempDir
    Path dir;

    @Test
    void aNodeListBecomesTheNodesByName() {
        List<NodeSpec> nodes = SimulatedNodes.fromNodeList(Path.of("src/test/resources/gpu-nodes.csv"));
        assertEquals(List.of(new NodeSpec("openb-node-0001", new Resources(2000, 64000, 262144)),
                new NodeSpec("openb-node-0002", new Resources(8000, 96000, 786432))), nodes);
    }

    @Test
    void aMissingFileABadRowOrAnEmptyListIsRefusedWithWhy() throws Exception {
        String missing = assertThrows(IllegalArgumentException.class,
                () -> SimulatedNodes.fromNodeList(dir.resolve("nope.csv"))).getMessage();
        assertTrue(missing.contains("no such file"), missing);
        Path bad = Files.writeString(dir.resolve("bad.csv"), "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1024,9,T4\n");
        String badRow = assertThrows(IllegalArgumentException.class, () -> SimulatedNodes.fromNodeList(bad)).getMessage();
        assertTrue(badRow.contains("1 bad row(s)") && badRow.contains("gpu must be 0..8"), badRow);
        Path columns = Files.writeString(dir.resolve("cols.csv"), "name,cpu\nn1,3\n");
        String wrong = assertThrows(IllegalArgumentException.class, () -> SimulatedNodes.fromNodeList(columns))
                .getMessage();
        assertTrue(wrong.contains("is not a list in the trace's format") && wrong.contains("lacks column 'sn'"), wrong);
        Path empty = Files.writeString(dir.resolve("empty.csv"), "sn,cpu_milli,memory_mib,gpu,model\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimulatedNodes.fromNodeList(empty)).getMessage()
                .contains("lists no node"));
    }
}
