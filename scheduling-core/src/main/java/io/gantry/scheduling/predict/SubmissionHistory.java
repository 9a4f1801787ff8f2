package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What is known about a job when it is submitted, from the jobs before it: the run times of the last
 * {@value #WINDOW} finished jobs of the same user with the same shape (tasks × per-task request), of the same user and
 * of everyone, and the submissions of the same user and shape in the last {@value #BURST_S} seconds. Only finished jobs'
 * run times and earlier submissions are read, so a prediction never sees the future.
 */
final class SubmissionHistory {

    static final int WINDOW = 10;
    static final double BURST_S = 600;
    /** Length of {@link #features}. */
    static final int FEATURES = 13;

    private static final double LN_1E6 = Math.log(1e6);

    private final Map<String, Recent> byUserAndShape = new HashMap<>();
    private final Map<String, Recent> byUser = new HashMap<>();
    private final Recent everyone = new Recent();
    private final Map<String, ArrayDeque<Double>> submittedByShape = new HashMap<>();
    private final Map<String, Double> lastSubmitByUser = new HashMap<>();

    /**
     * The mean run time of the most specific history that has any (same user and shape, same user, everyone); NaN
     * when no job has finished yet. The Helios-style predictor (SC'21, §5).
     */
    double mostSpecificMean(JobRequest job) {
        Recent r = byUserAndShape.get(shapeKey(job));
        if (r == null) {
            r = byUser.get(job.user());
        }
        if (r == null) {
            r = everyone;
        }
        return r.mean();
    }

    /**
     * The regression features of a job about to be submitted: a bias, then for the user-and-shape and the user
     * histories a presence flag, the mean and the last log run time, the spread of the former, everyone's mean log run
     * time, how many same-shape jobs finished (log), the gang's size (log2), the burst of same-shape submissions and
     * the gap since the user's previous submission (both log). Log run times are ÷ ln 10⁶ so weights start comparable.
     */
    double[] features(JobRequest job) {
        String key = shapeKey(job);
        Recent shape = byUserAndShape.get(key);
        Recent user = byUser.get(job.user());
        double[] x = new double[FEATURES];
        x[0] = 1;
        if (shape != null) {
            x[1] = 1;
            x[2] = shape.meanLog() / LN_1E6;
            x[3] = shape.lastLog() / LN_1E6;
            x[4] = shape.spreadLog() / LN_1E6;
            x[10] = Math.log1p(shape.finished) / LN_1E6;
        }
        if (user != null) {
            x[5] = 1;
            x[6] = user.meanLog() / LN_1E6;
            x[7] = user.lastLog() / LN_1E6;
        }
        x[8] = everyone.finished > 0 ? everyone.meanLog() / LN_1E6 : 0;
        x[9] = Math.log(Math.max(1.0, job.gpus())) / Math.log(2) / 8;
        x[11] = Math.log1p(burst(key, job.submitTime())) / Math.log(100);
        Double last = lastSubmitByUser.get(job.user());
        x[12] = last == null ? 1 : Math.log1p(Math.max(0, job.submitTime() - last)) / LN_1E6;
        return x;
    }

    void submitted(JobRequest job) {
        submittedByShape.computeIfAbsent(shapeKey(job), k -> new ArrayDeque<>()).addLast(job.submitTime());
        lastSubmitByUser.merge(job.user(), job.submitTime(), Math::max);
    }

    void finished(JobRequest job, double runSeconds) {
        byUserAndShape.computeIfAbsent(shapeKey(job), k -> new Recent()).add(runSeconds);
        byUser.computeIfAbsent(job.user(), k -> new Recent()).add(runSeconds);
        everyone.add(runSeconds);
    }

    /** Same-shape submissions in the {@value #BURST_S} s before {@code now}; older ones are dropped as they age out. */
    private int burst(String key, double now) {
        ArrayDeque<Double> times = submittedByShape.get(key);
        if (times == null) {
            return 0;
        }
        while (!times.isEmpty() && times.peekFirst() < now - BURST_S) {
            times.removeFirst();
        }
        return times.size();
    }

    private static String shapeKey(JobRequest job) {
        return job.user() + '|' + job.tasks() + 'x' + job.perTask();
    }

    /** The last {@value #WINDOW} run times of one history, raw and as logs. */
    private static final class Recent {
        private final ArrayDeque<Double> values = new ArrayDeque<>(WINDOW);
        private double sum;
        private double logSum;
        private double logSquares;
        private double lastLog;
        private long finished;

        void add(double v) {
            if (values.size() == WINDOW) {
                double old = values.removeFirst();
                sum -= old;
                logSum -= Math.log1p(old);
                logSquares -= Math.log1p(old) * Math.log1p(old);
            }
            values.addLast(v);
            sum += v;
            lastLog = Math.log1p(v);
            logSum += lastLog;
            logSquares += lastLog * lastLog;
            finished++;
        }

        double mean() {
            return values.isEmpty() ? Double.NaN : sum / values.size();
        }

        double meanLog() {
            return logSum / values.size();
        }

        double lastLog() {
            return lastLog;
        }

        double spreadLog() {
            double m = meanLog();
            return Math.sqrt(Math.max(0, logSquares / values.size() - m * m));
        }
    }
}
