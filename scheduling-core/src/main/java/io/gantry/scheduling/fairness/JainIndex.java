package io.gantry.scheduling.fairness;

import java.util.Collection;

/** Jain's fairness index (Jain, Chiu, Hawe 1984): (Σx)² ÷ (n·Σx²); 1 when all x are equal, 1/n when one has all. */
public final class JainIndex {

    private JainIndex() {
    }

    /** The index of {@code values}; NaN values are left out; 1 for no values or all zeros (nobody is favoured). */
    public static double of(Collection<Double> values) {
        double sum = 0;
        double sumSq = 0;
        int n = 0;
        for (double x : values) {
            if (Double.isNaN(x)) {
                continue;
            }
            sum += x;
            sumSq += x * x;
            n++;
        }
        return n == 0 || sumSq == 0 ? 1 : sum * sum / (n * sumSq);
    }
}
