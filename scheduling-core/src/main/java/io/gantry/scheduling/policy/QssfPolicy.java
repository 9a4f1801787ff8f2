package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.FrameworkPolicy;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.QueueSort;
import io.gantry.scheduling.model.JobRequest;
import java.util.Comparator;
import java.util.List;

/**
 * Helios' Quasi-Shortest-Service-First: the job with the smallest <em>predicted</em> GPU service
 * (predicted duration × GPUs) goes first. The prediction is whatever the caller put in
 * {@link JobRequest#predictedDurationS()} at submission (the simulator uses
 * {@code io.gantry.scheduling.predict.HistoryDurationPredictor}); the true duration is never read.
 * A job without a prediction sorts after every predicted one, FIFO among themselves. Non-preemptive.
 */
public final class QssfPolicy extends FrameworkPolicy {

    public static final String NAME = "qssf";

    // Fixed: the prediction is made once, at submission, so a waiting job's place never changes.
    static final QueueSort SHORTEST_PREDICTED_SERVICE = QueueSort.fixed(Comparator
            .comparingDouble(QssfPolicy::predictedGpuService)
            .thenComparingDouble(JobRequest::submitTime)
            .thenComparing(JobRequest::id));

    public QssfPolicy() {
        super(NAME, SHORTEST_PREDICTED_SERVICE, List.of(), NodeScorer.LEAST_ALLOCATED, false);
    }

    static double predictedGpuService(JobRequest job) {
        double d = job.predictedDurationS();
        if (Double.isNaN(d)) {
            return Double.POSITIVE_INFINITY;
        }
        // CPU-only jobs still occupy the queue; count them as one GPU's worth so they are not all "free".
        return d * Math.max(job.gpus(), 1.0);
    }
}
