package io.gantry.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    private static int bench(ByteArrayOutputStream err, String... args) throws Exception {
        return new BenchCommand(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err)).run(args);
    }

    private static String withoutWall(String json) {
        return json.replaceAll("\"wall_s\": [0-9.eE+-]+", "\"wall_s\": X");
    }

    @Test
    void sameSeedSameSummaryApartFromWallTime(@TempDir Path tmp) throws Exception {
        String[] common = {"--trace", "philly", "--load", "1.0", "--jobs", "1500", "--seeds", "4", "--policies", "kube-default,tiresias"};
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, concat(common, "--out", tmp.resolve("a").toString())));
        assertEquals(0, bench(err, concat(common, "--out", tmp.resolve("b").toString())));
        String a = Files.readString(tmp.resolve("a/summary.json"));
        String b = Files.readString(tmp.resolve("b/summary.json"));
        assertEquals(withoutWall(a), withoutWall(b));
        for (String key : SummaryWriter.COLUMNS) {
            assertTrue(a.contains("\"" + key + "\": "), key);
        }
        assertTrue(Files.size(tmp.resolve("a/jct-cdf-rho1.00.png")) > 1000);
        assertTrue(Files.size(tmp.resolve("a/gpu-alloc-rho1.00.png")) > 1000);
        assertEquals(3, Files.readAllLines(tmp.resolve("a/summary.csv")).size());
    }

    @Test
    void badFlagsAreRefusedWithAReason() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, bench(err, "--policies", "fifo-magic"));
        assertTrue(err.toString().contains("unknown policy 'fifo-magic'"), err.toString());
        err.reset();
        assertEquals(2, bench(err, "--load", "0"));
        assertTrue(err.toString().contains("--load values must be positive"), err.toString());
        err.reset();
        assertEquals(2, bench(err, "--trace", "pai2020"));
        assertTrue(err.toString().contains("pass --trace-file"), err.toString());
        err.reset();
        assertEquals(2, bench(err, "--node-shape", "8,96"));
        assertTrue(err.toString().contains("GPUS,VCPUS,MEM_GIB"), err.toString());
        err.reset();
        assertEquals(2, bench(err, "--fair", "on", "--fair-half-life", "0"));
        assertTrue(err.toString().contains("--fair-half-life takes a finite number of seconds > 0, got '0'"), err.toString());
        err.reset();
        assertEquals(2, bench(err, "--fair-weight", "50"));
        assertTrue(err.toString().contains("need --fair on"), err.toString());
        err.reset();
        assertEquals(2, bench(err, "--preemption-cost", "-30"));
        assertTrue(err.toString().contains("--preemption-cost takes a finite number of seconds ≥ 0, got '-30'"), err.toString());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
