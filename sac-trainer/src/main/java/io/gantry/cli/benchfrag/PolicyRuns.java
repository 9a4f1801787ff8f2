package io.gantry.cli.benchfrag;

import io.gantry.scheduling.gpushare.FragCurve;
import java.util.List;
import java.util.function.Function;

/** The runs of one policy, one curve per seed, and their means and spreads at given points. */
record PolicyRuns(String policy, List<Long> seeds, List<FragCurve> curves) {

    double meanAt(Function<FragCurve, double[]> series, int percent) {
        return curves.stream().mapToDouble(c -> series.apply(c)[percent]).average().orElse(Double.NaN);
    }

    /** Sample standard deviation over seeds (0 with one seed). */
    double sdAt(Function<FragCurve, double[]> series, int percent) {
        if (curves.size() < 2) {
            return 0;
        }
        double m = meanAt(series, percent);
        double ss = curves.stream().mapToDouble(c -> Math.pow(series.apply(c)[percent] - m, 2)).sum();
        return Math.sqrt(ss / (curves.size() - 1));
    }

    double meanWallS() {
        return curves.stream().mapToDouble(FragCurve::wallS).average().orElse(Double.NaN);
    }

    double maxWallS() {
        return curves.stream().mapToDouble(FragCurve::wallS).max().orElse(Double.NaN);
    }

    /** The mean curve over seeds, 0..max percent. */
    double[] meanCurve(Function<FragCurve, double[]> series) {
        int n = curves.get(0).maxPercent() + 1;
        double[] m = new double[n];
        for (int k = 0; k < n; k++) {
            m[k] = meanAt(series, k);
        }
        return m;
    }
}
