package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The idle-GPU rule on a job whose time to finish falls as 1000 s ÷ n^0.8 on n GPUs (up to 16). */
class IdleScalingTest {

    private static final IntToDoubleFunction LEFT = n -> n >= 1 && n <= 16 ? 1000 / Math.pow(n, 0.8) : Double.NaN;

    private static int gpus(int rule, int current, double restartS, boolean waiting) {
        return IdleScaling.gpus(LEFT, rule, rule, current, restartS, waiting, extra -> true);
    }

    @Test
    void growsIntoIdleGpusWhileNobodyWaits() {
        assertEquals(2 * 2, gpus(2, 2, 10, false), "up to twice the rule's 2 GPUs, the fastest count there");
    }

    @Test
    void doesNotGrowWhenAJobWaits() {
        assertEquals(2, gpus(2, 2, 10, true));
    }

    @Test
    void shrinksBackToTheRuleWhenAJobStartsWaiting() {
        assertEquals(2, gpus(2, 4, 10, true));
    }

    @Test
    void keepsItsIdleGpusWhileNobodyWaits() {
        assertEquals(4, IdleScaling.gpus(LEFT, 2, 2, 4, 10, false, extra -> false),
                "no shrink to save GPU-seconds nobody would use");
    }

    /** Pollux's bound: a job grows to at most twice what it holds, so growth into an idle cluster compounds. */
    @Test
    void eachGrowAtMostDoublesWhatItHolds() {
        for (int rule = 1; rule <= 8; rule++) {
            assertEquals(Math.min(2 * rule, 16), gpus(rule, rule, 0, false), "from the rule's " + rule);
        }
        assertEquals(4, gpus(1, 2, 0, false));
        assertEquals(8, gpus(1, 4, 0, false));
        assertEquals(16, gpus(1, 8, 0, false));
        assertEquals(16, gpus(1, 16, 0, false), "no faster count past 16 (the model's last): it stays");
    }

    @Test
    void aGrowMustPayForItsRestart() {
        // From 2 GPUs (574 s left) to 4 (330 s): worth it at a 100 s restart, not at 300 s.
        assertEquals(4, gpus(2, 2, 100, false));
        assertEquals(2, gpus(2, 2, 300, false));
    }

    @Test
    void onlyIntoGpusThatAreFree() {
        assertEquals(3, IdleScaling.gpus(LEFT, 2, 2, 2, 10, false, extra -> extra <= 1));
        assertEquals(2, IdleScaling.gpus(LEFT, 2, 2, 2, 10, false, extra -> false));
    }

    @Test
    void aJobTheRuleCannotSizeIsLeftAsTheRuleSays() {
        assertEquals(3, IdleScaling.gpus(LEFT, 0, 3, 3, 10, false, extra -> true));
    }
}
