package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * Optional capability of a {@link SchedulingPolicy} whose queue order is fixed per job. A caller that
 * keeps its pending jobs sorted by {@link #fixedQueueOrder()} between rounds hands them over already in
 * order, so a round costs what it places rather than a sort of the whole queue. Such a policy never
 * preempts: its {@code decide} returns {@code Decision.placeOnly(...)}.
 */
public interface OrderedQueueScheduling {

    /** The order pending jobs are considered in, or null when it may change while they wait. */
    Comparator<JobRequest> fixedQueueOrder();

    /**
     * Exactly the placements {@link SchedulingPolicy#decide} would return for a context whose pending
     * jobs are those of {@code inOrder}. Only valid when {@link #fixedQueueOrder()} is non-null.
     *
     * @param inOrder  pending jobs in {@link #fixedQueueOrder()}; iteration may stop early
     * @param smallest component-wise smallest per-task request among them
     *                 ({@link GangPlacer#smallestRequest}): once even that fits nowhere the round ends
     */
    List<Placement> scheduleInOrder(double now, ClusterState cluster, Iterator<JobRequest> inOrder, Resources smallest);
}
