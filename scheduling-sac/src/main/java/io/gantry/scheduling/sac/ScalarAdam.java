package io.gantry.scheduling.sac;

/** Adam on one scalar (log α). */
final class ScalarAdam {
    private final double lr;
    private double m;
    private double v;
    private int t;

    ScalarAdam(double lr) {
        this.lr = lr;
    }

    double step(double grad) {
        t++;
        m = 0.9 * m + 0.1 * grad;
        v = 0.999 * v + 0.001 * grad * grad;
        double mHat = m / (1 - Math.pow(0.9, t));
        double vHat = v / (1 - Math.pow(0.999, t));
        return lr * mHat / (Math.sqrt(vHat) + 1e-8);
    }
}
