package io.gantry.scheduling.sac;

import java.util.Arrays;

/**
 * The exact one-sided Wilcoxon signed-rank test of paired differences, "is the median difference above 0?".
 *
 * <p>Zero differences are dropped before ranking (Wilcoxon's own rule, R's and SciPy's default): a pair on which
 * both sides are identical says nothing about the direction, and dropping it shrinks n, which only makes the test
 * harder to pass (the smallest p-value is 2^-n). Tied magnitudes share their mid-rank, and the null distribution is
 * the exact one of those very mid-ranks: under H0 each of the 2^n sign patterns is equally likely, so the number of
 * patterns whose positive-rank sum reaches each value is counted by dynamic programming over the ranks (doubled, so
 * that mid-ranks are integers). No normal approximation, no continuity correction: with the 8-12 pairs the promotion
 * gate uses, an approximation would be off exactly where the decision is made.
 */
public final class WilcoxonSignedRank {

    /** Above this many non-zero pairs the counts (up to 2^n) no longer fit a long. */
    public static final int MAX_PAIRS = 62;

    /**
     * @param pairs  non-zero differences ranked (zeros dropped)
     * @param zeros  differences that were exactly 0
     * @param wPlus  sum of the (mid-)ranks of the positive differences, in [0, pairs(pairs+1)/2]
     * @param pValue P(W+ ≥ wPlus) under H0 (median difference 0); 1 when there are no non-zero pairs
     */
    public record Outcome(int pairs, int zeros, double wPlus, double pValue) {
    }

    private WilcoxonSignedRank() {
    }

    /**
     * One-sided test that the differences tend to be positive.
     *
     * @throws IllegalArgumentException on a NaN or infinite difference, or more than {@link #MAX_PAIRS} non-zero ones
     */
    public static Outcome positiveShift(double[] differences) {
        int zeros = 0;
        double[] nonZero = new double[differences.length];
        int n = 0;
        for (double d : differences) {
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("differences: " + d + " is not a finite number");
            }
            if (d == 0) {
                zeros++;
            } else {
                nonZero[n++] = d;
            }
        }
        if (n > MAX_PAIRS) {
            throw new IllegalArgumentException("differences: " + n + " non-zero pairs, at most " + MAX_PAIRS);
        }
        if (n == 0) {
            return new Outcome(0, zeros, 0, 1.0);
        }
        double[] d = Arrays.copyOf(nonZero, n);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(Math.abs(d[a]), Math.abs(d[b])));
        int[] doubledRank = new int[n];
        int observed = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && Math.abs(d[order[j + 1]]) == Math.abs(d[order[i]])) {
                j++;
            }
            // Positions i..j (0-based) hold ranks i+1..j+1; their mid-rank doubled is i+j+2.
            for (int k = i; k <= j; k++) {
                doubledRank[k] = i + j + 2;
                if (d[order[k]] > 0) {
                    observed += i + j + 2;
                }
            }
            i = j + 1;
        }
        return new Outcome(n, zeros, observed / 2.0, upperTail(doubledRank, observed));
    }

    /** P(Σ of a uniformly random subset of {@code ranks} ≥ {@code observed}), counted exactly. */
    private static double upperTail(int[] ranks, int observed) {
        int max = 0;
        for (int r : ranks) {
            max += r;
        }
        long[] ways = new long[max + 1];
        ways[0] = 1;
        int reach = 0;
        for (int r : ranks) {
            for (int s = reach; s >= 0; s--) {
                ways[s + r] += ways[s];
            }
            reach += r;
        }
        long atLeast = 0;
        for (int s = Math.max(observed, 0); s <= max; s++) {
            atLeast += ways[s];
        }
        // 2^n patterns in all; both counts are exact, the division is the only rounding.
        return atLeast / Math.pow(2, ranks.length);
    }
}
