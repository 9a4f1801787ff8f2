package io.gantry.cli.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gantry predictors} on the real Philly trace: a row per predictor, the oracle exact, the same seed the same file. */
class PredictorsCommandTest {

    private static int run(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) throws Exception {
        return new PredictorsCommand(new PrintStream(out), new PrintStream(err)).run(args);
    }

    @Test
    void scoresEveryPredictorOnTheSplitAndTheSameSeedGivesTheSameFile(@TempDir Path tmp) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, run(out, err, "--split", "train", "--out", tmp.resolve("a").toString()), err.toString());
        assertEquals(0, run(out, err, "--split", "train", "--out", tmp.resolve("b").toString()), err.toString());
        List<String> rows = Files.readAllLines(tmp.resolve("a/predictors.csv"));
        assertEquals(Files.readAllLines(tmp.resolve("b/predictors.csv")), rows);
        assertEquals(4, rows.size(), rows.toString());
        String[] header = rows.get(0).split(",");
        int predictor = List.of(header).indexOf("predictor");
        int jobs = List.of(header).indexOf("jobs");
        int unknown = List.of(header).indexOf("unknown");
        int mae = List.of(header).indexOf("mae_log");
        int order = List.of(header).indexOf("pair_order");
        for (String row : rows.subList(1, 4)) {
            String[] v = row.split(",");
            // September 2017, the train split: the first jobs, before any has ended, have no history to go on.
            assertEquals(5657, Integer.parseInt(v[jobs]) + Integer.parseInt(v[unknown]), row);
            if (v[predictor].equals("oracle-durations")) {
                assertEquals(0.0, Double.parseDouble(v[mae]), row);
                assertEquals(1.0, Double.parseDouble(v[order]), row);
                assertEquals(0, Integer.parseInt(v[unknown]), row);
            } else {
                assertTrue(Double.parseDouble(v[mae]) > 0.1 && Double.parseDouble(v[order]) < 0.95, row);
            }
        }
        assertTrue(Files.readString(tmp.resolve("a/predictors.json")).contains("\"predictor\": \"learned\""));
        assertTrue(out.toString().contains("oracle-durations*"), out.toString());
    }

    @Test
    void badFlagsAreRefusedWithAReason() throws Exception {
        for (String[] bad : new String[][] {{"--split", "november"}, {"--seed", "1,2"}, {"--trace", "philly"}}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(2, run(new ByteArrayOutputStream(), err, bad), String.join(" ", bad));
            assertTrue(err.toString().startsWith("gantry predictors: "), err.toString());
        }
    }
}
