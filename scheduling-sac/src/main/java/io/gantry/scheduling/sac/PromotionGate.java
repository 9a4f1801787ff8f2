package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The gate of online learning: a candidate replaces the version in charge only if it is significantly better on the
 * check set, by a stated test, and by a margin worth a swap.
 *
 * <p>The check set (the last completed jobs, in completion order) is cut into {@code windows} disjoint runs of
 * consecutive jobs. Each run is replayed on its own through both versions ({@link ReplayCheck#compare}: greedy, the
 * history predictor, arrivals rescaled to the check load), which gives one pair of average JCTs per window. The
 * candidate is promoted when both hold:
 * <ol>
 *   <li>the exact one-sided Wilcoxon signed-rank test of the differences (current − candidate, per window) gives
 *       p ≤ {@code alpha} ({@link WilcoxonSignedRank}: zero differences dropped, ties at their mid-rank);</li>
 *   <li>the mean over the windows of the candidate's average JCT is below the current version's, by at least
 *       {@code minImprovement} (relative; with a floor of 0, still strictly below).</li>
 * </ol>
 *
 * <p>Why this shape. The jobs of one replay are not independent observations: where one job is placed moves every
 * later job's wait, so a test over the jobs of a single replay would count one effect hundreds of times. Disjoint
 * windows, each replayed from an empty cluster, are separate experiments. Pairing (the same window through both
 * versions) removes the variation between windows, which is far larger than the difference between two versions.
 * Windows are consecutive, not shuffled, to keep the bursts of the real arrivals. With 8-12 windows and skewed
 * per-window averages (a few long jobs dominate one), a paired t-test's normality cannot be relied on, and the sign
 * test throws away how large each difference is; the signed-rank test assumes only that the differences are
 * symmetric about 0 when the versions are equally good, and its exact null distribution is cheap at this size. Its
 * smallest p-value is 2^-n for n non-zero pairs, so {@code windows} must satisfy 2^-windows ≤ alpha to be able to
 * promote at all (n = 5 is the least for α = 0.05).
 *
 * <p>The test alone would promote a tiny, consistent gain, and every promotion swaps the policy that decides;
 * the effect floor asks for a gain worth that. It also makes the first guarantee: a promoted version's mean
 * window JCT on its check set is below the version it replaces (by at least the floor), so replaying that check set
 * again (replays are deterministic) never shows it worse. A candidate equal to the version in charge gives only zero
 * differences, p = 1, and is never promoted.
 *
 * <p>What the test does not cover. Its α is per check: the learner checks again every few hundred gradient steps,
 * so a candidate that is no better has about α per check (less, since consecutive check sets overlap) of passing
 * one; the effect floor cuts that further, but repeated checks are not corrected for. And significance is over these
 * windows of recent history; a workload that changes after the check is not covered by it.
 */
public final class PromotionGate {

    /**
     * @param windows        disjoint consecutive windows the check set is cut into, 1 to
     *                       {@link WilcoxonSignedRank#MAX_PAIRS}
     * @param alpha          level of the one-sided test, in (0, 1]
     * @param minImprovement least relative gain of the mean window JCT, in [0, 1)
     */
    public record Settings(int windows, double alpha, double minImprovement) {

        /** 10 windows (smallest p-value 1/1024), α = 0.05, 2% gain. */
        public static final Settings DEFAULT = new Settings(10, 0.05, 0.02);

        public Settings {
            if (windows < 1 || windows > WilcoxonSignedRank.MAX_PAIRS) {
                throw new IllegalArgumentException("windows must be in [1, " + WilcoxonSignedRank.MAX_PAIRS + "], got "
                        + windows);
            }
            if (!(alpha > 0 && alpha <= 1)) {
                throw new IllegalArgumentException("alpha must be in (0, 1], got " + alpha);
            }
            if (!(minImprovement >= 0 && minImprovement < 1)) {
                throw new IllegalArgumentException("minImprovement must be in [0, 1), got " + minImprovement);
            }
            if (Math.pow(2, -windows) > alpha) {
                throw new IllegalArgumentException("windows " + windows + " can never reach alpha " + alpha
                        + ": the smallest p-value of " + windows + " windows is 2^-" + windows);
            }
        }
    }

    /** One window's replays: its jobs (after shaping) and both versions' average JCT, in the jobs' seconds. */
    public record Window(int jobs, double candidateAvgJctS, double currentAvgJctS) {
    }

    /**
     * @param promote     whether the candidate passed
     * @param pValue      of the signed-rank test
     * @param wPlus       its statistic: rank sum of the windows where the candidate was faster
     * @param improvement (current − candidate) ÷ current of the mean window JCTs; negative when the candidate is
     *                    worse
     * @param windows     every window's pair, in check-set order
     * @param load        offered load the windows were rescaled to
     * @param reason      why it passed, or which condition it failed, with the figures
     */
    public record Result(boolean promote, double pValue, double wPlus, double improvement, List<Window> windows,
                         double load, String reason) {

        public Result {
            windows = List.copyOf(windows);
        }

        /** Mean over the windows of the candidate's average JCT. */
        public double candidateAvgJctS() {
            return windows.stream().mapToDouble(Window::candidateAvgJctS).average().orElse(Double.NaN);
        }

        /** Mean over the windows of the current version's average JCT. */
        public double currentAvgJctS() {
            return windows.stream().mapToDouble(Window::currentAvgJctS).average().orElse(Double.NaN);
        }

        /** Jobs replayed, over all windows. */
        public int jobs() {
            return windows.stream().mapToInt(Window::jobs).sum();
        }
    }

    private PromotionGate() {
    }

    /**
     * Replays each window through both versions and judges the pairs.
     *
     * @param jobs the check set, in completion order, with true durations and submit times
     * @throws IllegalArgumentException when the check set cannot fill the windows, or a window has no job that fits
     *                                  the nodes (nothing to judge yet)
     * @throws IllegalStateException    when a version's inference fails during a replay
     */
    public static Result check(SacAgent candidate, SacAgent current, List<JobRequest> jobs, List<NodeSpec> nodes,
                               double load, Settings settings) {
        int k = settings.windows();
        if (jobs.size() < k) {
            throw new IllegalArgumentException("jobs: " + jobs.size() + " jobs cannot fill " + k + " windows");
        }
        List<Window> windows = new ArrayList<>(k);
        for (int w = 0; w < k; w++) {
            // Sizes differ by at most one job; window w holds jobs [w·n/k, (w+1)·n/k).
            List<JobRequest> part = jobs.subList(w * jobs.size() / k, (w + 1) * jobs.size() / k);
            ReplayCheck.Result r = ReplayCheck.compare(candidate, current, part, nodes, load);
            windows.add(new Window(r.jobs(), r.candidateAvgJctS(), r.currentAvgJctS()));
        }
        return judge(windows, load, settings);
    }

    /** The decision on pairs already replayed. */
    public static Result judge(List<Window> windows, double load, Settings settings) {
        if (windows.isEmpty()) {
            throw new IllegalArgumentException("windows: nothing to judge");
        }
        double[] faster = new double[windows.size()];
        double candidateSum = 0;
        double currentSum = 0;
        for (int i = 0; i < faster.length; i++) {
            Window w = windows.get(i);
            faster[i] = w.currentAvgJctS() - w.candidateAvgJctS();
            candidateSum += w.candidateAvgJctS();
            currentSum += w.currentAvgJctS();
        }
        WilcoxonSignedRank.Outcome test = WilcoxonSignedRank.positiveShift(faster);
        double improvement = currentSum > 0 ? (currentSum - candidateSum) / currentSum : 0;
        boolean significant = test.pValue() <= settings.alpha();
        boolean large = improvement >= settings.minImprovement() && improvement > 0;
        String figures = String.format(Locale.ROOT, "p = %.4f (W+ = %.1f, %d windows, %d faster, %d tied), avg JCT"
                        + " %.1f%% %s", test.pValue(), test.wPlus(), windows.size(), positives(faster), test.zeros(),
                100 * Math.abs(improvement), improvement >= 0 ? "better" : "worse");
        String reason;
        if (!significant) {
            reason = String.format(Locale.ROOT, "not significant: %s; needs p <= %s", figures, settings.alpha());
        } else if (!large) {
            reason = String.format(Locale.ROOT, "too small a gain: %s; needs %.1f%% better", figures,
                    100 * settings.minImprovement());
        } else {
            reason = String.format(Locale.ROOT, "significantly better: %s (p <= %s, gain >= %.1f%%)", figures,
                    settings.alpha(), 100 * settings.minImprovement());
        }
        return new Result(significant && large, test.pValue(), test.wPlus(), improvement, windows, load, reason);
    }

    private static int positives(double[] d) {
        int n = 0;
        for (double x : d) {
            n += x > 0 ? 1 : 0;
        }
        return n;
    }
}
