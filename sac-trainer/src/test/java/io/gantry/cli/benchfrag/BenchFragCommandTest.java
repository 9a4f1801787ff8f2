package io.gantry.cli.benchfrag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gantry bench-frag} end to end on a small node and pod list in the trace's format. */
class BenchFragCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final BenchFragCommand command = new BenchFragCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void writesTheCurveThePlotsAndASummaryPerPolicy(@TempDir Path dir) throws IOException {
        Path nodes = Files.writeString(dir.resolve("nodes.csv"), "sn,cpu_milli,memory_mib,gpu,model\n"
                + "n0,32000,131072,4,T4\nn1,32000,131072,4,T4\nn2,96000,393216,8,G2\n");
        Path pods = Files.writeString(dir.resolve("pods.csv"), "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"
                + "a,4000,8192,1,500,\nb,4000,8192,1,1000,\nc,8000,8192,2,1000,G2\nd,2000,4096,0,0,\ne,2000,4096,1,250,\n");
        Path o = dir.resolve("out");
        int rc = command.run(new String[] {"--pods", pods.toString(), "--nodes-file", nodes.toString(), "--policies",
                "fgd,best-fit", "--seeds", "1,2", "--out", o.toString()});
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        String summary = Files.readString(o.resolve("summary.json"));
        for (String key : new String[] {"\"policy\": \"fgd\"", "\"policy\": \"best-fit\"", "\"seeds\": 2",
                "\"gpu_alloc_at_100\": ", "\"gpu_alloc_at_130\": ", "\"wall_s\": "}) {
            assertTrue(summary.contains(key), key + " in " + summary);
        }
        // Header + 2 policies × 2 seeds × 131 points.
        assertEquals(1 + 2 * 2 * 131, Files.readAllLines(o.resolve("frag.csv")).size());
        assertTrue(Files.size(o.resolve("frag-fgd.png")) > 1000 && Files.size(o.resolve("frag-best-fit.png")) > 1000);
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("alloc@100") && table.contains("alloc@130") && table.contains("best-fit"), table);
    }

    @Test
    void helpPrintsTheUsageWithThePolicies() throws IOException {
        assertEquals(0, command.run(new String[] {"--help"}));
        String usage = out.toString(StandardCharsets.UTF_8);
        assertTrue(usage.startsWith("usage: gantry bench-frag") && usage.contains("reach 130% of the cluster's GPUs")
                && usage.contains("fgd") && usage.contains("best-fit"), usage);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBadFlagIsReportedWithTheUsage() throws IOException {
        assertEquals(2, command.run(new String[] {"--policies", "fgd,nope"}));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("unknown policy 'nope'") && e.contains("usage: gantry bench-frag"), e);
        assertEquals(2, command.run(new String[] {"--pods", "/no/such/file.csv"}));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--pods: file not found"));
    }
}
