package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * A duration predictor that learns, online, how much to trust each kind of history: a linear model of the log run
 * time, fitted by recursive least squares with forgetting as each job finishes (Haykin, <i>Adaptive Filter Theory</i>,
 * ch. 10), over features known at submission ({@link SubmissionHistory}): the recent log run times of the same user
 * with the same shape, of the same user and of everyone, how many of each there are, the gang's size, and whether the
 * job arrives in a burst of identical submissions (a hyper-parameter sweep, whose jobs tend to run alike).
 *
 * <p>Why this and not a bigger learner: it is the part of the scheduling prior that has measurable headroom (the
 * ordering an oracle gets from true durations) and a supervised signal per finished job, where the SAC critic gets a
 * reward dominated by arrivals it cannot change. Forgetting (λ) keeps it tracking a workload that drifts from one
 * month to the next; it is deterministic (no seed), so a replay gives the same predictions every time.
 *
 * <p>Until {@value #WARM_UP} jobs have finished it answers as {@link HistoryDurationPredictor} does (the mean of the
 * most specific history), so it is never worse-informed than that predictor at the start of a replay. Its answer is
 * exp(ŷ) − 1, the median of a log-normal error, not the mean exp(ŷ + s²/2): the mean inflated every prediction by the
 * same large factor (s² ≈ 1–3 on Philly), so jobs outlived their predictions late and the sac prior's 2D-LAS
 * fallback started late; on one validation window (seed 3, ρ 1.2) that more than doubled sac's average JCT
 * (bench/README.md, issue 20, "A learned duration predictor").
 */
public final class LearnedDurationPredictor implements DurationPredictor {

    static final int WARM_UP = 200;
    /** Forgetting factor: the fit's memory is about 1 / (1 − λ) = 2,000 finished jobs. */
    static final double FORGETTING = 0.9995;
    private static final double INITIAL_COVARIANCE = 100.0;

    private final SubmissionHistory history = new SubmissionHistory();
    private final Map<String, double[]> featuresAtSubmission = new HashMap<>();
    private final double[] weights = new double[SubmissionHistory.FEATURES];
    private final double[][] covariance = new double[SubmissionHistory.FEATURES][SubmissionHistory.FEATURES];
    private int observed;

    public LearnedDurationPredictor() {
        for (int i = 0; i < weights.length; i++) {
            covariance[i][i] = INITIAL_COVARIANCE;
        }
    }

    @Override
    public double predict(JobRequest job) {
        double[] x = history.features(job);
        featuresAtSubmission.put(job.id(), x);
        history.submitted(job);
        if (observed < WARM_UP) {
            return history.mostSpecificMean(job);
        }
        return Math.expm1(Math.max(0, dot(weights, x)));
    }

    @Override
    public void observe(JobRequest job, double runSeconds) {
        if (!(runSeconds >= 0)) {
            return;
        }
        double y = Math.log1p(runSeconds);
        // The features the job had when it was submitted: learning from today's history would use the future.
        double[] x = featuresAtSubmission.remove(job.id());
        if (x == null) {
            x = history.features(job);
        }
        update(x, y - dot(weights, x));
        observed++;
        history.finished(job, runSeconds);
    }

    /** Jobs whose run time this predictor has learned from. */
    public int observed() {
        return observed;
    }

    /** One recursive-least-squares step with forgetting. */
    private void update(double[] x, double error) {
        int d = x.length;
        double[] px = new double[d];
        for (int i = 0; i < d; i++) {
            px[i] = dot(covariance[i], x);
        }
        double denominator = FORGETTING + dot(x, px);
        for (int i = 0; i < d; i++) {
            weights[i] += px[i] / denominator * error;
        }
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                // P is symmetric; updating both halves from one value keeps it so despite rounding.
                double v = (covariance[i][j] - px[i] * px[j] / denominator) / FORGETTING;
                covariance[i][j] = v;
                covariance[j][i] = v;
            }
        }
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
