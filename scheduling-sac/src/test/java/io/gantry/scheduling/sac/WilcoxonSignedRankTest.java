package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Exact p-values against values worked out by hand or read from the published tables (the two-sided tables'
 * one-tail columns: for n = 10, P(T ≤ 10) = 0.0420 and P(T ≤ 11) = 0.0527, e.g. Siegel, "Nonparametric Statistics",
 * table G), and against a brute-force count of all 2^n sign patterns.
 */
class WilcoxonSignedRankTest {

    @Test
    void eightPositiveDifferencesGiveOneIn256() {
        WilcoxonSignedRank.Outcome o =
                WilcoxonSignedRank.positiveShift(new double[] {3, 1, 4, 1.5, 9, 2.6, 5, 3.5});
        assertEquals(8, o.pairs());
        assertEquals(36, o.wPlus(), "all eight ranks are positive: 1 + ... + 8");
        assertEquals(1.0 / 256, o.pValue(), 0.0, "only the all-positive pattern reaches 36");
    }

    @Test
    void theTableValuesForTenPairs() {
        // Ranks 1-4 negative: T = W- = 10, so W+ = 55 - 10 = 45; 43 of the 1024 patterns have W- <= 10.
        WilcoxonSignedRank.Outcome ten =
                WilcoxonSignedRank.positiveShift(new double[] {-1, -2, -3, -4, 5, 6, 7, 8, 9, 10});
        assertEquals(45, ten.wPlus());
        assertEquals(43.0 / 1024, ten.pValue(), 0.0);
        assertEquals(0.0420, ten.pValue(), 5e-5, "table: n = 10, T = 10");
        // Ranks 1, 2, 3, 5 negative: T = 11; 54 of 1024.
        WilcoxonSignedRank.Outcome eleven =
                WilcoxonSignedRank.positiveShift(new double[] {-1, -2, -3, -5, 4, 6, 7, 8, 9, 10});
        assertEquals(44, eleven.wPlus());
        assertEquals(54.0 / 1024, eleven.pValue(), 0.0);
        assertEquals(0.0527, eleven.pValue(), 5e-5, "table: n = 10, T = 11");
    }

    @Test
    void tiedMagnitudesShareTheirMidRankAndTheNullCountsThoseMidRanks() {
        // |d| = 1, 1, 1, 2: mid-rank 2 for the three 1s, rank 4 for the 2. W+ = 2 + 2 + 4 = 8.
        // Of the 16 patterns, W+ >= 8 for {all four} (10) and the three {two of the 1s, the 2} (8): 4 / 16.
        WilcoxonSignedRank.Outcome o = WilcoxonSignedRank.positiveShift(new double[] {1, 1, -1, 2});
        assertEquals(8, o.wPlus());
        assertEquals(0.25, o.pValue(), 0.0);
        // |d| = 1 | 2 2 2 | 3 3 | 4 | 5: ranks 1 | 3 3 3 | 5.5 5.5 | 7 | 8; W+ = 3 + 3 + 5.5 + 5.5 + 7 + 8 = 32.
        WilcoxonSignedRank.Outcome mixed =
                WilcoxonSignedRank.positiveShift(new double[] {2, -2, 2, 3, 3, -1, 4, 5});
        assertEquals(32, mixed.wPlus());
        assertEquals(8.0 / 256, mixed.pValue(), 0.0, "8 of 256 patterns by brute force");
    }

    @Test
    void zerosAreDroppedBeforeRanking() {
        WilcoxonSignedRank.Outcome o = WilcoxonSignedRank.positiveShift(new double[] {0, 0, 3, 1, 2});
        assertEquals(3, o.pairs());
        assertEquals(2, o.zeros());
        assertEquals(1.0 / 8, o.pValue(), 0.0, "three positive pairs: 1 in 8");
        WilcoxonSignedRank.Outcome none = WilcoxonSignedRank.positiveShift(new double[] {0, 0, 0, 0, 0, 0, 0, 0});
        assertEquals(0, none.pairs());
        assertEquals(1.0, none.pValue(), 0.0, "no evidence at all");
    }

    @Test
    void allNegativeGivesOne() {
        double[] allNegative = {-1, -2, -3, -4, -5, -6, -7, -8};
        assertEquals(1.0, WilcoxonSignedRank.positiveShift(allNegative).pValue(), 0.0);
    }

    /** The p-value by counting every sign pattern of the mid-ranks of {@code d} one by one. */
    private static double bruteForce(double[] d) {
        int n = d.length;
        double[] abs = new double[n];
        for (int i = 0; i < n; i++) {
            abs[i] = Math.abs(d[i]);
        }
        double[] rank = new double[n];
        for (int i = 0; i < n; i++) {
            int below = 0;
            int equal = 0;
            for (int j = 0; j < n; j++) {
                below += abs[j] < abs[i] ? 1 : 0;
                equal += abs[j] == abs[i] ? 1 : 0;
            }
            rank[i] = below + (equal + 1) / 2.0;
        }
        double observed = 0;
        for (int i = 0; i < n; i++) {
            observed += d[i] > 0 ? rank[i] : 0;
        }
        int atLeast = 0;
        for (int mask = 0; mask < 1 << n; mask++) {
            double w = 0;
            for (int i = 0; i < n; i++) {
                w += (mask >> i & 1) == 1 ? rank[i] : 0;
            }
            atLeast += w >= observed - 1e-9 ? 1 : 0;
        }
        return atLeast / (double) (1 << n);
    }

    @Test
    void theDynamicProgrammeCountsWhatEnumerationCounts() {
        SplittableRandom rng = new SplittableRandom(17);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + rng.nextInt(12);
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                // Few distinct magnitudes, so ties are common; never 0.
                d[i] = (1 + rng.nextInt(5)) * (rng.nextBoolean() ? 1 : -1) + rng.nextInt(2) * 0.5;
            }
            assertEquals(bruteForce(d), WilcoxonSignedRank.positiveShift(d).pValue(), 1e-12,
                    Arrays.toString(d));
        }
    }

    @Test
    void aBadDifferenceIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> WilcoxonSignedRank.positiveShift(new double[] {1, Double.NaN}));
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                () -> WilcoxonSignedRank.positiveShift(ones(WilcoxonSignedRank.MAX_PAIRS + 1)));
        assertTrue(tooMany.getMessage().startsWith("differences:"), tooMany.getMessage());
    }

    private static double[] ones(int n) {
        double[] d = new double[n];
        Arrays.fill(d, 1);
        return d;
    }
}
