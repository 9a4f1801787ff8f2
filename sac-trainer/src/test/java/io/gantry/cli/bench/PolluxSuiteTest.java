package io.gantry.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 21's one-run comparison: {@code gantry bench --trace pollux} with no file or cluster runs Pollux's suite. */
class PolluxSuiteTest {

    @Test
    void thePolluxTraceWithoutAFileOrAClusterRunsEveryWorkloadInBothShapesAndAveragesThem(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new BenchCommand(new PrintStream(out), new PrintStream(err)).run(new String[] {"--trace", "pollux",
                "--load", "0.5", "--policies", "pollux,tiresias", "--tuner", "off,once", "--jobs", "4",
                "--out", dir.toString()});
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));

        // every file of workloads-0.5 in both shapes, each with its own summary: pollux once, tiresias per tuner mode
        Map<String, List<Double>> jctByCell = new HashMap<>();
        for (String shape : List.of("16x4", "13x8")) {
            for (int w = 1; w <= 8; w++) {
                List<String> lines = Files.readAllLines(dir.resolve(shape + "/workloads-0.5/workload-" + w + "/summary.csv"));
                assertEquals(4, lines.size(), shape + " workload-" + w + ": header, pollux, tiresias off and once");
                List<String> header = List.of(lines.get(0).split(","));
                for (String line : lines.subList(1, lines.size())) {
                    String[] v = line.split(",");
                    String key = shape + "," + v[header.indexOf("policy")] + "," + v[header.indexOf("tuner")];
                    jctByCell.computeIfAbsent(key, k -> new ArrayList<>()).add(Double.parseDouble(v[header.indexOf("avg_jct_s")]));
                }
            }
        }
        // means.csv: one row per shape, policy and tuner mode, the mean of its 8 files
        List<String> means = Files.readAllLines(dir.resolve("means.csv"));
        assertEquals(1 + 6, means.size(), String.join("\n", means));
        for (String line : means.subList(1, means.size())) {
            String[] v = line.split(",");
            assertEquals("0.5", v[1]);
            assertEquals("8", v[4]);
            List<Double> files = jctByCell.get(v[0] + "," + v[2] + "," + v[3]);
            assertEquals(8, files.size(), line);
            assertEquals(files.stream().mapToDouble(Double::doubleValue).average().orElseThrow(), Double.parseDouble(v[5]),
                    1e-3, line);
        }
        assertTrue(jctByCell.containsKey("16x4,pollux,own") && jctByCell.containsKey("13x8,tiresias,once"), jctByCell.keySet().toString());
        // summary.json: every run, with its shape and folder
        String summary = Files.readString(dir.resolve("summary.json"));
        assertEquals(2 * 8 * 3, summary.split("\"workloads\": \"workloads-0.5\"", -1).length - 1);
        assertEquals(8 * 3, summary.split("\"shape\": \"16x4\"", -1).length - 1);
        assertTrue(printed.contains("16x4 load 0.5: tiresias/"), printed);
        assertTrue(printed.contains("13x8 load 0.5: tiresias/"), printed);
        // progress: every file of both shapes counted, the time left from the second on
        assertTrue(printed.contains("[1/16] 16x4 load 0.5 workload-1\n"), printed);
        assertTrue(printed.matches("(?s).*\\[16/16\\] 13x8 load 0.5 workload-8 \\(\\d+ min \\d\\d s so far, about \\d+ min \\d\\d s left\\)\n.*"),
                printed);
    }

    @Test
    void aFileOrAClusterMeansOneRunAndTheSuiteTakesOnlyItsOwnLoads() throws Exception {
        assertTrue(PolluxSuite.applies(new String[] {"--trace", "pollux", "--policies", "pollux,tiresias,sac"}));
        assertFalse(PolluxSuite.applies(new String[] {"--trace", "pollux", "--trace-file", "x.csv"}));
        assertFalse(PolluxSuite.applies(new String[] {"--trace", "pollux", "--nodes", "16"}));
        assertFalse(PolluxSuite.applies(new String[] {"--trace", "pollux", "--node-shape", "4,64,256"}));
        assertFalse(PolluxSuite.applies(new String[] {"--trace", "philly"}));
        assertFalse(PolluxSuite.applies(new String[] {"--trace", "pollux", "--help"}));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, new BenchCommand(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err))
                .run(new String[] {"--trace", "pollux", "--load", "0.7"}));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("picks its folders: 0.5, 1.0 or 1.5, got 0.7"), err.toString());
    }
}
