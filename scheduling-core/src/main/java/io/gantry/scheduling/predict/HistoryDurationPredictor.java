package io.gantry.scheduling.predict;

import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Helios-style history predictor: the mean run time of the last {@value #WINDOW} finished jobs of the
 * same user with the same shape (tasks × per-task request); failing that, of the same user; failing
 * that, of everyone. Recent jobs only, because a user's workload drifts (Helios, SC'21, §5).
 */
public final class HistoryDurationPredictor implements DurationPredictor {

    static final int WINDOW = 10;

    private final Map<String, Recent> byUserAndShape = new HashMap<>();
    private final Map<String, Recent> byUser = new HashMap<>();
    private final Recent everyone = new Recent();

    @Override
    public double predict(JobRequest job) {
        Recent r = byUserAndShape.get(shapeKey(job));
        if (r == null) {
            r = byUser.get(job.user());
        }
        if (r == null) {
            r = everyone;
        }
        return r.mean();
    }

    @Override
    public void observe(JobRequest job, double runSeconds) {
        byUserAndShape.computeIfAbsent(shapeKey(job), k -> new Recent()).add(runSeconds);
        byUser.computeIfAbsent(job.user(), k -> new Recent()).add(runSeconds);
        everyone.add(runSeconds);
    }

    private static String shapeKey(JobRequest job) {
        return job.user() + '|' + job.tasks() + 'x' + job.perTask();
    }

    private static final class Recent {
        private final ArrayDeque<Double> values = new ArrayDeque<>(WINDOW);
        private double sum;

        void add(double v) {
            if (values.size() == WINDOW) {
                sum -= values.removeFirst();
            }
            values.addLast(v);
            sum += v;
        }

        double mean() {
            return values.isEmpty() ? Double.NaN : sum / values.size();
        }
    }
}
