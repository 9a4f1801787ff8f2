package io.gantry.cli.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdaptCommandTest {

    private static int adapt(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) throws Exception {
        return new AdaptCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    }

    /** The first 240 real jobs of Philly's reporting half of October, on 2 nodes, with a gate that checks often. */
    private static String[] small(Path out) {
        return new String[] {"--split", "report", "--jobs", "240", "--nodes", "2", "--seeds", "3",
                "--check-every", "40", "--check-jobs", "60", "--check-windows", "6", "--rolling-jobs", "50",
                "--out", out.toString()};
    }

    @Test
    void eachModeReplaysEveryJobAndTheSameSeedGivesTheSameFigures(@TempDir Path tmp) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, adapt(out, err, small(tmp.resolve("a"))), err.toString(StandardCharsets.UTF_8));
        assertEquals(0, adapt(out, err, small(tmp.resolve("b"))), err.toString(StandardCharsets.UTF_8));

        List<String> jobs = Files.readAllLines(tmp.resolve("a/jobs.csv"));
        assertEquals("seed,job_id,submit_s,jct_frozen_s,jct_online_s,jct_gated_s", jobs.get(0));
        assertEquals(241, jobs.size(), "one row per job, each with its JCT in all three modes");
        Set<String> ids = new HashSet<>();
        double lastSubmit = Double.NEGATIVE_INFINITY;
        for (String row : jobs.subList(1, jobs.size())) {
            String[] f = row.split(",");
            assertTrue(ids.add(f[1]), "job twice: " + f[1]);
            double submit = Double.parseDouble(f[2]);
            assertTrue(submit >= lastSubmit, "rows in submit order");
            lastSubmit = submit;
            for (int m = 3; m <= 5; m++) {
                assertTrue(Double.parseDouble(f[m]) > 0, row);
            }
        }
        // 240 completions; the first check once 60 have completed, then one per 40 more: at 60, 100, ..., 220 (a
        // round may end several jobs at once, so a check can come a little later and the last may not come at all).
        List<String> checks = Files.readAllLines(tmp.resolve("a/checks.csv"));
        assertTrue(checks.size() - 1 >= 3 && checks.size() - 1 <= 5, "checks: " + (checks.size() - 1));
        assertTrue(Files.size(tmp.resolve("a/rolling-jct-seed3.png")) > 1000);
        String summary = Files.readString(tmp.resolve("a/summary.json"));
        assertTrue(summary.contains("\"bar_met\": "), summary);
        assertTrue(summary.contains("\"jobs\": 240"), summary);

        for (String f : List.of("jobs.csv", "checks.csv", "summary.json")) {
            assertSameLines(tmp.resolve("a").resolve(f), tmp.resolve("b").resolve(f));
        }
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("last third, mean over seeds: online"), table);
    }

    /** Names the first line two runs wrote differently: a whole file in the message is cut off in CI's output. */
    private static void assertSameLines(Path a, Path b) throws IOException {
        List<String> first = Files.readAllLines(a);
        List<String> second = Files.readAllLines(b);
        for (int i = 0; i < Math.min(first.size(), second.size()); i++) {
            assertEquals(first.get(i), second.get(i), a.getFileName() + " differs between two runs of the same seed,"
                    + " first at line " + (i + 1) + " of " + first.size());
        }
        assertEquals(first.size(), second.size(), a.getFileName() + ": lines in the two runs of the same seed");
    }

    @Test
    void badFlagsAreRefusedWithTheFlag() throws Exception {
        assertRefused("--split train", "--split", "train");
        assertRefused("--check-jobs 5 cannot fill 10 windows", "--check-jobs", "5");
        assertRefused("--check-windows/--check-alpha/--check-min-improvement", "--check-windows", "3");
        assertRefused("--jobs", "--jobs", "0");
        assertRefused("unknown flag --bogus", "--bogus", "1");
    }

    private static void assertRefused(String expected, String... args) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = adapt(new ByteArrayOutputStream(), err, args);
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(rc != 0, "accepted: " + String.join(" ", args));
        assertTrue(text.contains(expected), "expected '" + expected + "' in: " + text);
    }
}
