package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a running job keeps its GPUs when it gives some back. */
class InPlaceResizingTest {

    @Test
    void aShrinkKeepsTheJobPacked() {
        assertEquals(List.of("a", "a", "a"), InPlaceResizing.kept(List.of("a", "a", "a", "b"), 3));
    }

    /**
     * GPUs given back for waiting jobs pile up on one node: a job on 4 GPUs of node a and 1 of node b, nothing else
     * free, gives its first GPU back on a (where it holds most) and its second there too, so that a waiting 2-GPU
     * task fits on a; on a node that already has a free GPU it gives back there first.
     */
    @Test
    void gpusGivenBackForWaitingJobsPileUpOnOneNode() {
        Map<String, Integer> free = new HashMap<>(Map.of("a", 0, "b", 0));
        List<String> once = InPlaceResizing.keptForWaiting(List.of("a", "a", "a", "a", "b"), free);
        List<String> twice = InPlaceResizing.keptForWaiting(once, free);
        assertEquals(List.of("a", "a", "b"), twice);
        assertEquals(Map.of("a", 2, "b", 0), free);

        Map<String, Integer> oneFreeOnB = new HashMap<>(Map.of("a", 0, "b", 1));
        assertEquals(List.of("a", "a", "a", "a"), InPlaceResizing.keptForWaiting(List.of("a", "a", "a", "a", "b"), oneFreeOnB));
        assertEquals(2, oneFreeOnB.get("b"));
    }
}
