package io.gantry.scheduling.tuning;

import io.gantry.scheduling.sim.SpareGpus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.IntToDoubleFunction;

/**
 * Idle-GPU scaling of adaptive jobs (`gantry bench --tuner-idle-scaling on`): the {@link ScaleOutRule} gives a
 * job only GPUs that each do at least the tuner's minimum share of one GPU's work, because a GPU given to a job at
 * less is one a queued job would have used better. When nobody waits, that reason is gone: a GPU left idle does
 * nothing at all. So, at a re-tune where no job is queued, the idle GPUs (the free ones and those jobs hold past
 * their rule counts) are shared out afresh among the running jobs ({@link #share}): a step at a time, to the job
 * whose predicted finish a step brings forward by the most seconds per GPU-second it costs, every change's
 * checkpoint-restart counted, up to as many GPUs as the job's profile measured a run on. Average JCT is a sum of
 * finish times, and a GPU-second spent on one job is one that jobs arriving later cannot have: a short job given GPUs
 * finishes and hands them back, a long one holds them for hours for a few seconds saved each. When jobs wait, nobody
 * grows, and the jobs holding idle GPUs give them back, least loss per GPU-second first, until the waiting jobs fit
 * ({@link #giveBackOrder}; the simulator frees them where the waiting tasks fit). A job that arrives while nobody
 * waits starts straight with the count idle scaling would give it ({@link #atArrival}), with no restart to pay. The
 * decisions read only the queue, the free GPUs and the jobs' own predictions, never their future.
 *
 * <p>Those predictions are made as measured ({@code RetunePlan.remainingSecondsAsMeasured}): GPUs packed onto nodes
 * of no more GPUs than the job's profile had on one node (4: Pollux's cluster), and no more GPUs than one measured
 * run had (64). On 8-GPU nodes the fitted model, packing 5–8 GPUs onto one node, extrapolates its one-node
 * synchronisation line past its data and promises grows that the measured profile, which times such placements from
 * a cross-node measurement, does not deliver: at 13 × 8 the grows of one load-0.5 file were predicted to save
 * 64,754 s and lost 73,211 s (bench/README.md, Tuner).
 */
final class IdleScaling {

    /**
     * One running job's part in a re-tune.
     *
     * @param left         predicted seconds to finish on n GPUs from now, without a restart (NaN where n cannot run it)
     * @param rule         the {@link ScaleOutRule} count for the training that is left (0: none fits)
     * @param ruled        what the rule alone decides from {@code current} (its count, or {@code current} when a
     *                     change does not pay for its restart)
     * @param current      GPUs the job holds
     * @param restartCostS what a change costs the job in seconds
     * @param maxGpus      the most GPUs it may have: as many as its profile measured a run on (within the data)
     */
    record Ask(IntToDoubleFunction left, int rule, int ruled, int current, double restartCostS, int maxGpus) {

        /**
         * The count the job starts from when idle GPUs are shared out: its rule count if it holds idle GPUs (they
         * go back into the pool), the rule's decision otherwise.
         */
        int base() {
            return grown() ? rule : ruled;
        }

        int bound() {
            return Math.max(maxGpus, current);
        }

        /** True when it holds idle GPUs it could give back: more than its rule count. */
        boolean grown() {
            return rule >= 1 && current > rule;
        }

        /**
         * What shrinking to its rule count costs it: seconds its finish moves back, restart included, per GPU-second
         * it hands back ({@link #gain}, the other way round).
         */
        double lossPerGpuSecond() {
            return gain(finishS(rule), rule, left.applyAsDouble(current), current);
        }

        /** Predicted seconds to finish on n GPUs, a change's restart included. */
        double finishS(int n) {
            double s = left.applyAsDouble(n);
            return n == current ? s : s + restartCostS;
        }
    }

    private IdleScaling() {
    }

    /**
     * The GPU count each job of one re-tune wants while nobody waits, in {@code asks}' order. The idle GPUs, the
     * {@code freeGpus} and those the jobs hold past their rule counts, are shared out afresh from each job's
     * {@link Ask#base base}, a step at a time, to the job whose predicted finish a step brings forward most per
     * GPU-second it costs ({@link #gain}), every change's restart counted (so a job keeps what it holds unless another does better with it, after both
     * restarts). A job's GPUs are single GPUs wherever they are free, so only their number is counted here.
     */
    static int[] share(List<Ask> asks, int freeGpus) {
        int[] want = new int[asks.size()];
        int pool = freeGpus;
        for (int i = 0; i < want.length; i++) {
            Ask a = asks.get(i);
            want[i] = a.base();
            pool += a.current() - want[i];
        }
        while (pool > 0) {
            int bestJob = -1;
            int bestCount = 0;
            double bestGain = 0;
            for (int i = 0; i < want.length; i++) {
                Ask a = asks.get(i);
                if (a.rule() < 1) {
                    continue;
                }
                double from = a.finishS(want[i]);
                for (int n = want[i] + 1; n <= Math.min(a.bound(), want[i] + pool); n++) {
                    double s = a.finishS(n);
                    double gain = gain(from, want[i], s, n);
                    if (feasible(s) && gain > bestGain) {
                        bestJob = i;
                        bestCount = n;
                        bestGain = gain;
                    }
                }
            }
            if (bestJob < 0) {
                break;
            }
            pool -= bestCount - want[bestJob];
            want[bestJob] = bestCount;
        }
        return want;
    }

    /**
     * The count a job that arrives now starts with: the count up to {@code bound} its model predicts finishes
     * soonest, of those whose gang {@code fits}; {@code tuned} if none is sooner.
     */
    static int atArrival(IntToDoubleFunction left, int tuned, int bound, IntPredicate fits) {
        int best = tuned;
        for (int n = tuned + 1; n <= bound; n++) {
            double s = left.applyAsDouble(n);
            if (feasible(s) && (!feasible(left.applyAsDouble(best)) || s < left.applyAsDouble(best)) && fits.test(n)) {
                best = n;
            }
        }
        return best;
    }

    /**
     * Jobs wait: the jobs of {@code asks} that hold idle GPUs (more than their rule counts), in the order they give
     * them back, the one whose finish moves back least per GPU-second handed back first, each with its rule count,
     * the least it goes down to.
     */
    static List<SpareGpus.GiveBack> giveBackOrder(List<Ask> asks) {
        List<Integer> grown = new ArrayList<>();
        for (int i = 0; i < asks.size(); i++) {
            if (asks.get(i).grown()) {
                grown.add(i);
            }
        }
        grown.sort(Comparator.comparingDouble(i -> asks.get(i).lossPerGpuSecond()));
        return grown.stream().map(i -> new SpareGpus.GiveBack(i, asks.get(i).rule())).toList();
    }

    /**
     * What going from {@code fromGpus} GPUs (finishing in {@code fromS}) to {@code toGpus} (in {@code toS}) is worth:
     * seconds saved per GPU-second it costs more. A GPU-second spent here is one the jobs that come later cannot
     * have: a short job finishes sooner and hands its GPUs back, a long one holds them for hours for a few seconds
     * saved each. Infinite when it costs none (or nothing runs now).
     */
    private static double gain(double fromS, int fromGpus, double toS, int toGpus) {
        if (!feasible(fromS)) {
            return Double.POSITIVE_INFINITY;
        }
        double extraGpuS = toGpus * toS - fromGpus * fromS;
        return fromS <= toS ? 0 : extraGpuS <= 0 ? Double.POSITIVE_INFINITY : (fromS - toS) / extraGpuS;
    }

    private static boolean feasible(double s) {
        return s > 0 && !Double.isInfinite(s) && !Double.isNaN(s);
    }
}
