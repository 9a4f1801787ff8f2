package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The GPU-count rule: every GPU added must itself do at least the threshold's share of one GPU's work. */
class ScaleOutRuleTest {

    private static final double NAN = Double.NaN;

    /** Seconds on 1..8 GPUs of a job whose speed-up is {@code speedups[n-1]} on n GPUs, 1000 s on one. */
    private static double[] seconds(double... speedups) {
        double[] s = new double[speedups.length + 1];
        s[0] = NAN;
        for (int n = 1; n <= speedups.length; n++) {
            s[n] = Double.isNaN(speedups[n - 1]) ? NAN : 1000 / speedups[n - 1];
        }
        return s;
    }

    @Test
    void theLastGpusMustPayForThemselvesNotJustKeepTheAverageUp() {
        // 87.5 % average on 4 GPUs, 70 % on 8: the average rule took 8, but GPUs 5..8 add 2.1 ÷ 4 = 52.5 % each.
        double[] s = seconds(1, 1.9, 2.7, 3.5, 4, 4.5, 5, 5.6);
        assertEquals(0.525, ScaleOutRule.marginalEfficiency(s, 4, 8), 1e-9);
        assertEquals(4, ScaleOutRule.gpus(s, 0.7));
        assertEquals(8, ScaleOutRule.gpus(s, 0.5));
    }

    @Test
    void aBadNodeCrossingIsSkippedWhileFullNodesCanStillBeTaken() {
        // 5..7 GPUs span two nodes and barely gain; 8 fills both and adds 3.4 ÷ 4 = 85 % per GPU over 4.
        double[] s = seconds(1, 2, 3, 4, 4.1, 4.2, 4.3, 7.4);
        assertEquals(8, ScaleOutRule.gpus(s, 0.7));
    }

    @Test
    void perfectScalingTakesEverythingAndNoGainTakesNothing() {
        assertEquals(6, ScaleOutRule.gpus(seconds(1, 2, 3, 4, 5, 6), 1.0));
        assertEquals(1, ScaleOutRule.gpus(seconds(1, 1, 1, 1), 0.01));
    }

    @Test
    void countsThatCannotRunTheJobAreNeverChosenAndTheSmallestFeasibleIsTheBase() {
        // The batch needs at least 2 GPUs; 3 cannot split it; per-GPU work is measured against 2 GPUs.
        double[] s = seconds(NAN, 2, NAN, 3.8);
        assertEquals(4, ScaleOutRule.gpus(s, 0.85));
        assertEquals(2, ScaleOutRule.gpus(s, 0.95));
        assertEquals(0, ScaleOutRule.gpus(seconds(NAN, NAN), 0.7));
        assertEquals(0, ScaleOutRule.marginalEfficiency(s, 2, 3));
    }
}
