package io.gantry.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainOptionsTest {

    @Test
    void theLatencySwitchTakesNoValueWhereverItStands(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("trace.csv"), "");
        TrainOptions o = TrainOptions.parse(new String[] {"--trace-file", trace.toString(), "--latency",
                "--load", "0.5,1.5", "--out", dir.toString()});
        assertTrue(o.latencyOnly());
        assertEquals(List.of(0.5, 1.5), o.loads());
        assertEquals(trace, o.traceFile());
        assertEquals(dir, o.out());
        assertEquals("unknown flag --bogus", assertThrows(IllegalArgumentException.class,
                () -> TrainOptions.parse(new String[] {"--trace-file", trace.toString(), "--bogus", "1"})).getMessage());
    }

    @Test
    void featuresAreBaseByDefaultExtendedOnRequestAndNothingElse(@TempDir Path dir) throws IOException {
        String trace = Files.writeString(dir.resolve("trace.csv"), "").toString();
        assertFalse(TrainOptions.parse(new String[] {"--trace-file", trace}).settings().extendedFeatures());
        assertTrue(TrainOptions.parse(new String[] {"--trace-file", trace, "--features", "extended"}).settings()
                .extendedFeatures());
        assertFalse(TrainOptions.parse(new String[] {"--trace-file", trace, "--features", "base"}).settings()
                .extendedFeatures());
        assertEquals("--features is base or extended, got 'all'", assertThrows(IllegalArgumentException.class,
                () -> TrainOptions.parse(new String[] {"--trace-file", trace, "--features", "all"})).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainOptions.parse(new String[] {"--trace-file",
                trace, "--features", "extended", "--init", "classpath:/sac/default"})).getMessage()
                .contains("--init keeps the checkpoint's settings"));
    }
}
