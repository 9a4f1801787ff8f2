package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.FrameworkPolicy;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.QueueSort;
import io.gantry.scheduling.model.JobRequest;
import java.util.Comparator;
import java.util.List;

/** The production default: FIFO by priority then arrival, LeastAllocated scoring (spread). */
public final class KubeDefaultPolicy extends FrameworkPolicy {

    public static final String NAME = "kube-default";

    /** Higher priority first, then earlier arrival, then job id so the order is total and repeatable. */
    public static final QueueSort PRIORITY_THEN_ARRIVAL = QueueSort.fixed(Comparator
            .comparingDouble(JobRequest::priority).reversed()
            .thenComparingDouble(JobRequest::submitTime)
            .thenComparing(JobRequest::id));

    public KubeDefaultPolicy() {
        super(NAME, PRIORITY_THEN_ARRIVAL, List.of(), NodeScorer.LEAST_ALLOCATED, false);
    }
}
