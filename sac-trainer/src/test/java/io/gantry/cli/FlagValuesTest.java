package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FlagValuesTest {

    @Test
    void flagsComeInOrderWithTheirValuesAndSwitchesWithNone() {
        assertEquals(List.of(new FlagValues.Flag("--jobs", "5"), new FlagValues.Flag("--exit-when-done", null),
                        new FlagValues.Flag("--out", "--help")),
                FlagValues.read(new String[] {"--jobs", "5", "--exit-when-done", "--out", "--help"},
                        Set.of("--exit-when-done")));
    }

    @Test
    void helpInAFlagsPlaceIsAskedForAndAMissingValueOrAStrayArgumentIsAnError() {
        assertThrows(FlagValues.HelpRequested.class, () -> FlagValues.read(new String[] {"--jobs", "5", "-h"}, Set.of()));
        assertEquals("--jobs needs a value", assertThrows(IllegalArgumentException.class,
                () -> FlagValues.read(new String[] {"--jobs"}, Set.of())).getMessage());
        assertEquals("unexpected argument 'stray'", assertThrows(IllegalArgumentException.class,
                () -> FlagValues.read(new String[] {"stray", "x"}, Set.of())).getMessage());
    }
}
