package io.gantry.scheduling.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one placer: whole gangs or nothing, scores decide the node, filters exclude, the cluster is never touched. */
class GangPlacerTest {

    private static ClusterState cluster() {
        ClusterState c = new ClusterState(List.of(new NodeSpec("a", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("b", Resources.ofGpus(8, 96, 384)), new NodeSpec("c", Resources.ofGpus(4, 48, 192))));
        c.allocate("a", Resources.ofGpus(6, 8, 32)); // a: 2 GPUs free, b: 8, c: 4
        return c;
    }

    private static JobRequest job(String id, int tasks, double gpusPerTask) {
        return new JobRequest(id, "u", tasks, Resources.ofGpus(gpusPerTask, 4, 16), 0, 0, Double.NaN, 10);
    }

    @Test
    void leastAllocatedSpreadsAndMostAllocatedPacks() {
        assertEquals(List.of("b"), new GangPlacer(cluster().nodes(), List.of(), NodeScorer.LEAST_ALLOCATED)
                .place(job("j", 1, 2)));
        assertEquals(List.of("a"), new GangPlacer(cluster().nodes(), List.of(), NodeScorer.MOST_ALLOCATED)
                .place(job("j", 1, 2)));
    }

    @Test
    void aGangIsPlacedWholeOrNotAtAllAndLeavesNothingChargedWhenItFails() {
        GangPlacer p = new GangPlacer(cluster().nodes(), List.of(), NodeScorer.MOST_ALLOCATED);
        assertNull(p.place(job("too-big", 4, 4)), "2 + 8 + 4 free GPUs hold only three 4-GPU tasks");
        List<String> gang = p.place(job("fits", 3, 4));
        assertEquals(3, gang.size());
        assertEquals(2, gang.stream().filter("b"::equals).count(), "two tasks share b");
        assertTrue(gang.contains("c"));
        assertFalse(p.mightFit(job("more", 1, 4)), "what the gang took is charged for the rest of the round");
        assertEquals(0, cluster().node("b").allocated().gpuMilli(), "the cluster itself is never changed");
    }

    @Test
    void aFilterExcludesNodesBeforeScoring() {
        NodeFilter notB = (j, node) -> !node.name().equals("b");
        assertEquals(List.of("c"), new GangPlacer(cluster().nodes(), List.of(notB), NodeScorer.LEAST_ALLOCATED)
                .place(job("j", 1, 2)));
        assertNull(new GangPlacer(cluster().nodes(), List.of(notB), NodeScorer.LEAST_ALLOCATED).place(job("k", 1, 8)));
    }

    @Test
    void releasingAJobsRoomOnATrialCopyChangesTheOriginalOnlyWhenAdopted() {
        GangPlacer p = new GangPlacer(cluster().nodes(), List.of(), NodeScorer.MOST_ALLOCATED);
        GangPlacer trial = p.copy();
        trial.release(List.of("a"), Resources.ofGpus(6, 8, 32));
        assertEquals(List.of("a"), trial.place(job("big", 1, 8)), "on the trial copy a is empty again");
        assertEquals(List.of("b"), p.copy().place(job("big", 1, 8)), "the original still holds a's 6 GPUs");
        p.adopt(trial);
        assertEquals(List.of("b"), p.place(job("next", 1, 8)), "adopted: big holds a");
        assertFalse(p.mightFit(job("more", 1, 8)));
    }

    @Test
    void anAnchoredGangFillsItsAnchorFirstAndPlacesTheRestByScore() {
        GangPlacer p = new GangPlacer(cluster().nodes(), List.of(), NodeScorer.LEAST_ALLOCATED);
        // Anchor c (index 2, 4 GPUs free) holds two 2-GPU tasks; LeastAllocated sends the third to b, not a.
        assertEquals(List.of("c", "c", "b"), p.placeAnchored(job("g", 3, 2), 2));
        assertEquals(0, p.free(2).gpuMilli());
        assertEquals(6000, p.free(1).gpuMilli());
        assertNull(p.placeAnchored(job("none-on-c", 1, 1), 2), "nothing fits on a full anchor");
        assertNull(p.placeAnchored(job("too-big", 3, 4), 0), "a has 2 GPUs free: no 4-GPU task anchors there");
        assertEquals(1, p.slotsFor(Resources.ofGpus(4, 4, 16)), "failed anchorings charged nothing: only b holds one");
    }
}
