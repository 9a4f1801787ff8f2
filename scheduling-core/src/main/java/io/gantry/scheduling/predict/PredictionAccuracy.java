package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * How well a duration predictor does on a real trace, asked as a scheduler would ask it: jobs are submitted in time
 * order, each is predicted at its submission, and a job's run time is reported when it would end if it started at
 * once (submit + run time), so a prediction sees only jobs that ended before it. Queueing would make ends later and
 * the history older; that is the same for every predictor compared.
 *
 * <p>Two measures: the mean absolute error of log(1 + seconds), and the share of random pairs of jobs (with different
 * run times) that the prediction orders as the truth does, which is what a shortest-first prior needs. Pairs are drawn
 * with a seed; ties in the prediction count as wrong.
 */
public final class PredictionAccuracy {

    private static final int PAIRS = 200_000;

    /**
     * @param predicted  jobs scored (those submitted at or after {@code scoreFrom})
     * @param unknown    scored jobs the predictor had nothing for (NaN); they count in neither measure
     * @param maeLog     mean |log(1 + predicted) − log(1 + true)|
     * @param pairOrder  share of sampled pairs ordered as their true run times
     */
    public record Result(int predicted, int unknown, double maeLog, double pairOrder) {
    }

    private PredictionAccuracy() {
    }

    /**
     * Streams {@code jobs} (any order; sorted by submit time here) through {@code predictor}, learning from every job
     * and scoring those submitted at or after {@code scoreFrom}.
     */
    public static Result measure(List<JobRequest> jobs, DurationPredictor predictor, double scoreFrom, long seed) {
        List<JobRequest> bySubmit = bySubmit(jobs);
        double[] predicted = predictions(bySubmit, predictor);
        List<double[]> scored = new ArrayList<>();
        int unknown = 0;
        double absLog = 0;
        for (int i = 0; i < bySubmit.size(); i++) {
            JobRequest j = bySubmit.get(i);
            double p = predicted[i];
            if (j.submitTime() < scoreFrom) {
                continue;
            }
            if (!(p >= 0)) {
                unknown++;
                continue;
            }
            absLog += Math.abs(Math.log1p(p) - Math.log1p(j.trueDurationS()));
            scored.add(new double[] {p, j.trueDurationS()});
        }
        return new Result(scored.size(), unknown, scored.isEmpty() ? Double.NaN : absLog / scored.size(),
                pairOrder(scored, seed));
    }

    /**
     * The prediction of each of {@code bySubmit} (in submit order) at its submission, each job's run time reported to
     * {@code predictor} when it would end if it started at once.
     */
    public static double[] predictions(List<JobRequest> bySubmit, DurationPredictor predictor) {
        record End(double at, JobRequest job) {
        }
        PriorityQueue<End> ends = new PriorityQueue<>(Comparator.comparingDouble(End::at));
        double[] out = new double[bySubmit.size()];
        for (int i = 0; i < bySubmit.size(); i++) {
            JobRequest j = bySubmit.get(i);
            while (!ends.isEmpty() && ends.peek().at() <= j.submitTime()) {
                JobRequest done = ends.poll().job();
                predictor.observe(done, done.trueDurationS());
            }
            out[i] = predictor.predict(j);
            ends.add(new End(j.submitTime() + j.trueDurationS(), j));
        }
        return out;
    }

    /** A copy of {@code jobs} in submit order. */
    public static List<JobRequest> bySubmit(List<JobRequest> jobs) {
        List<JobRequest> sorted = new ArrayList<>(jobs);
        sorted.sort(Comparator.comparingDouble(JobRequest::submitTime));
        return sorted;
    }

    private static double pairOrder(List<double[]> scored, long seed) {
        if (scored.size() < 2) {
            return Double.NaN;
        }
        SplittableRandom random = new SplittableRandom(seed);
        int right = 0;
        int pairs = 0;
        for (int s = 0; s < PAIRS; s++) {
            double[] a = scored.get(random.nextInt(scored.size()));
            double[] b = scored.get(random.nextInt(scored.size()));
            if (a[1] == b[1]) {
                continue;
            }
            pairs++;
            if (a[0] != b[0] && (a[0] < b[0]) == (a[1] < b[1])) {
                right++;
            }
        }
        return pairs == 0 ? Double.NaN : (double) right / pairs;
    }
}
