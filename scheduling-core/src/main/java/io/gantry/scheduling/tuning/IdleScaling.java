package io.gantry.scheduling.tuning;

import java.util.function.IntPredicate;
import java.util.function.IntToDoubleFunction;

/**
 * Idle-GPU scaling of an adaptive job (`gantry bench --tuner-idle-scaling on`): the {@link ScaleOutRule} gives a
 * job only GPUs that each do at least the tuner's minimum share of one GPU's work, because a GPU given to a job at
 * less is one a queued job would have used better. When nobody waits, that reason is gone: a GPU left idle does
 * nothing at all. So, at a re-tune where no job is queued, a job may grow past its rule count into the free GPUs, up
 * to {@value #BOUND_FACTOR} × what it holds or its rule count, whichever is more (Pollux's own bound on a job's growth
 * is 2 × the most GPUs it has run on, so growth into an idle cluster compounds, re-tune by re-tune), to the count its
 * fitted model predicts finishes soonest, and only when that finishes sooner than staying, its checkpoint-restart
 * included. While nobody waits it keeps such GPUs (no shrink to save GPU-seconds that
 * nobody would use); at the first re-tune at which a job waits it shrinks back to its rule count at once, in
 * place. The decision reads only the queue, the free GPUs and the job's own predictions, never its future.
 *
 * <p>Those predictions are made as measured ({@code RetunePlan.remainingSecondsAsMeasured}): GPUs packed onto nodes
 * of no more GPUs than the job's profile had on one node (4: Pollux's cluster). On 8-GPU nodes the fitted model,
 * packing 5–8 GPUs onto one node, extrapolates its one-node synchronisation line past its data and promises grows
 * that the measured profile, which times such placements from a cross-node measurement, does not deliver: at
 * 13 × 8 the grows of one load-0.5 file were predicted to save 64,754 s and lost 73,211 s (bench/README.md, Tuner).
 */
final class IdleScaling {

    /** Most GPUs an idle-scaled job may grow to, as a multiple of what it holds (or of its rule count, if more). */
    static final int BOUND_FACTOR = 2;

    private IdleScaling() {
    }

    /**
     * The GPU count a job wants with idle scaling.
     *
     * @param left         predicted seconds to finish on n GPUs from now, without a restart (NaN where n cannot run it)
     * @param rule         the {@link ScaleOutRule} count for the training that is left (0: none fits)
     * @param ruled        what the rule alone decides from {@code current} (its count, or {@code current} when a
     *                     change does not pay for its restart)
     * @param current      GPUs the job holds
     * @param restartCostS what a change costs the job in seconds
     * @param jobsWaiting  true when a job is queued
     * @param extraFits    whether that many more GPUs are free for it now
     */
    static int gpus(IntToDoubleFunction left, int rule, int ruled, int current, double restartCostS,
                    boolean jobsWaiting, IntPredicate extraFits) {
        if (rule < 1) {
            return ruled;
        }
        if (jobsWaiting) {
            return current > rule ? rule : ruled;
        }
        int bound = BOUND_FACTOR * Math.max(rule, current);
        int base = current > ruled && current <= bound ? current : ruled;
        int from = Math.max(base, current);
        int best = from;
        double bestS = left.applyAsDouble(best);
        for (int n = from + 1; n <= bound; n++) {
            double s = left.applyAsDouble(n);
            if (feasible(s) && (!feasible(bestS) || s < bestS) && extraFits.test(n - current)) {
                best = n;
                bestS = s;
            }
        }
        if (best == from) {
            return base;
        }
        if (base > current) {
            return best; // the rule asks for a grow anyway: one restart either way, and this count is faster
        }
        double stay = left.applyAsDouble(current);
        return !feasible(stay) || bestS + restartCostS < stay ? best : base;
    }

    private static boolean feasible(double s) {
        return s > 0 && !Double.isInfinite(s);
    }
}
