package io.gantry.scheduling.tuning;

/**
 * How many GPUs a job is worth, from its predicted seconds to finish on each GPU count: the rule the one-time
 * {@link TrainingTuner} and the {@link AdaptiveRetuner} share.
 *
 * <p>Every GPU added must itself do at least {@code minEfficiency} of the work a GPU does at the job's smallest
 * count: going from m to n GPUs is taken only if the speed gained, S(n) − S(m) with S = 1 ÷ seconds, is at least
 * {@code minEfficiency × (n − m) × S(base) ÷ base}. Counts are walked upwards from the smallest feasible one, each
 * compared with the last one taken, so a count that crosses a node boundary badly is skipped while a larger count
 * that fills the nodes can still be taken. The earlier rule asked the same of the <em>average</em> over all the
 * job's GPUs, T(1) ÷ (n·T(n)): with diminishing returns that average stays above the threshold long after the last
 * GPUs added have dropped below it (a job at 80 % on 4 GPUs and 70 % on 8 gets its last 4 GPUs at 60 % each), and
 * a GPU given to such a job is one a queued job, or the job's own smaller gang, would have used better. The marginal
 * test spends GPU-hours only where they buy run time at the rate the threshold states.
 */
final class ScaleOutRule {

    private ScaleOutRule() {
    }

    /**
     * The GPU count to run on: {@code seconds[n]} is the predicted time on n GPUs (NaN where n cannot run the job),
     * for n in 1..{@code seconds.length − 1}; 0 when no count can run it.
     */
    static int gpus(double[] seconds, double minEfficiency) {
        int base = smallestFeasible(seconds);
        if (base == 0) {
            return 0;
        }
        int chosen = base;
        for (int n = base + 1; n < seconds.length; n++) {
            if (feasible(seconds[n]) && marginalEfficiency(seconds, chosen, n) >= minEfficiency) {
                chosen = n;
            }
        }
        return chosen;
    }

    /**
     * What each GPU added from {@code from} to {@code to} does, as a share of what one GPU does at the smallest
     * feasible count (1 = perfect scaling, 0 = no gain, negative = slower); 0 when either count cannot run the job.
     */
    static double marginalEfficiency(double[] seconds, int from, int to) {
        int base = smallestFeasible(seconds);
        if (base == 0 || to <= from || !feasible(seconds[from]) || !feasible(seconds[to])) {
            return 0;
        }
        double speedPerGpu = 1 / (seconds[base] * base);
        return (1 / seconds[to] - 1 / seconds[from]) / ((to - from) * speedPerGpu);
    }

    private static int smallestFeasible(double[] seconds) {
        for (int n = 1; n < seconds.length; n++) {
            if (feasible(seconds[n])) {
                return n;
            }
        }
        return 0;
    }

    private static boolean feasible(double s) {
        return s > 0 && !Double.isInfinite(s);
    }
}
