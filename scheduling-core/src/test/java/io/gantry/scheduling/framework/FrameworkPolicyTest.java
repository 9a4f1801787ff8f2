package io.gantry.scheduling.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A policy assembled from plugins: queue order, skipping or blocking on a job that does not fit, both entry paths. */
class FrameworkPolicyTest {

    private static final QueueSort FIFO = QueueSort.fixed(Comparator.comparingDouble(JobRequest::submitTime)
            .thenComparing(JobRequest::id));

    private static ClusterState oneNode() {
        return new ClusterState(List.of(new NodeSpec("n", Resources.ofGpus(8, 96, 384))));
    }

    private static JobRequest job(String id, double submit, double gpus) {
        return new JobRequest(id, "u", 1, Resources.ofGpus(gpus, 4, 16), submit, 0, Double.NaN, 10);
    }

    private static final List<JobRequest> QUEUE = List.of(job("small-late", 3, 2), job("big", 1, 8),
            job("small", 2, 4), job("x", 4, 2));

    private static List<String> placed(Decision d) {
        return d.placements().stream().map(Placement::jobId).toList();
    }

    @Test
    void aJobThatDoesNotFitIsSkippedUnlessTheQueueBlocks() {
        ClusterState c = oneNode();
        c.allocate("n", Resources.ofGpus(2, 4, 16)); // 6 GPUs free: big does not fit
        SchedulingContext ctx = new SchedulingContext(0, QUEUE, c, List.of(), java.util.Map.of());
        FrameworkPolicy skipping = new FrameworkPolicy("skip", FIFO, List.of(), NodeScorer.LEAST_ALLOCATED, false);
        FrameworkPolicy blocking = new FrameworkPolicy("block", FIFO, List.of(), NodeScorer.LEAST_ALLOCATED, true);
        assertEquals(List.of("small", "small-late"), placed(skipping.decide(ctx)), "FIFO, big skipped, then 4 + 2 GPUs");
        assertEquals(List.of(), placed(blocking.decide(ctx)), "head-of-line blocking: nothing passes big");
        assertTrue(skipping.skipsJobsThatDoNotFit());
        assertTrue(!blocking.skipsJobsThatDoNotFit());
        assertTrue(skipping.decide(ctx).preemptions().isEmpty());
    }

    @Test
    void theSortedPathPlacesExactlyWhatTheWholeQueuePathPlaces() {
        ClusterState c = oneNode();
        FrameworkPolicy p = new FrameworkPolicy("p", FIFO, List.of(), NodeScorer.MOST_ALLOCATED, false);
        List<JobRequest> sorted = new ArrayList<>(QUEUE);
        sorted.sort(p.fixedQueueOrder());
        assertEquals(p.decide(new SchedulingContext(0, QUEUE, c)).placements(),
                p.scheduleInOrder(0, c, sorted.iterator(), GangPlacer.smallestRequest(QUEUE)));
        assertEquals(List.of("big"), placed(p.decide(new SchedulingContext(0, QUEUE, c))), "big first, then full");
    }
}
