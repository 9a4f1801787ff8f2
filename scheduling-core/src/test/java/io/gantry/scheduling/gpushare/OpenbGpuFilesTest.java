package io.gantry.scheduling.gpushare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.trace.BadRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenbGpuFilesTest {

    @Test
    void rowsThatBreakTheTracesRulesAreReportedWithTheirLine(@TempDir Path dir) throws IOException {
        Path nodes = Files.writeString(dir.resolve("n.csv"), "sn,cpu_milli,memory_mib,gpu,model\n"
                + "ok,96000,393216,8,G2\nnomodel,96000,393216,8,\ncpu,64000,262144,0,\n");
        Path pods = Files.writeString(dir.resolve("p.csv"), "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"
                + "a,4000,1024,1,500,T4|A10\nb,4000,1024,2,500,\nc,4000,1024,1,1200,\nd,4000,1024,0,0,\n");
        List<BadRow> bad = new ArrayList<>();
        List<GpuNode> n = OpenbGpuFiles.loadNodes(nodes, bad);
        List<GpuPod> p = OpenbGpuFiles.loadPods(pods, bad);
        assertEquals(List.of("ok", "cpu"), n.stream().map(GpuNode::name).toList());
        assertEquals(List.of("a", "d"), p.stream().map(GpuPod::name).toList());
        assertEquals(List.of(3L, 3L, 4L), bad.stream().map(BadRow::line).toList());
        assertTrue(bad.get(0).reason().contains("no model"), bad.get(0).reason());
        assertTrue(bad.get(1).reason().contains("num_gpu 1"), bad.get(1).reason());
        // A spec is a set of models: order and spaces do not make another shape.
        assertEquals("A10|T4", p.get(0).shape().gpuSpec());
        assertTrue(p.get(0).shape().accepts("T4") && !p.get(0).shape().accepts("G2") && !p.get(0).shape().accepts(""));
        assertTrue(p.get(1).shape().accepts(""), "a CPU-only pod runs anywhere");
    }

    @Test
    void theMultiGpuVariantsWithoutGpuSpecLoad() {
        List<BadRow> bad = new ArrayList<>();
        List<GpuPod> pods = OpenbGpuFiles.loadPods(OpenbGpuFiles.traceDir().resolve("openb_pod_list_multigpu50.csv"), bad);
        assertEquals(List.of(), bad);
        assertTrue(pods.size() > 8000);
        assertTrue(pods.stream().allMatch(p -> p.shape().gpuSpec().isEmpty()));
    }
}
