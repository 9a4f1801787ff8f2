package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.FlagValues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayOptionsTest {

    @Test
    void exitWhenDoneIsASwitchAndTheOtherFlagsTakeTheirValues(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("trace.csv"), "");
        ReplayOptions o = ReplayOptions.parse(new String[] {"--trace-file", trace.toString(), "--exit-when-done",
                "--jobs", "5", "--bootstrap", "broker:9092"});
        assertTrue(o.exitWhenDone());
        assertEquals(5, o.jobs());
        assertEquals("broker:9092", o.bootstrap());
        assertFalse(ReplayOptions.parse(new String[] {"--trace-file", trace.toString()}).exitWhenDone());
        assertThrows(FlagValues.HelpRequested.class, () -> ReplayOptions.parse(new String[] {"--jobs", "5", "--help"}));
        assertEquals("--jobs needs a value", assertThrows(IllegalArgumentException.class,
                () -> ReplayOptions.parse(new String[] {"--jobs"})).getMessage());
    }
}
