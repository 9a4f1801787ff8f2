package io.gantry.scheduling.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterStateTest {

    private static final Resources NODE = Resources.ofGpus(8, 96, 384);
    private static final Resources TASK = Resources.ofGpus(1, 4, 16);

    @Test
    void aCopyWithoutSomeNodesKeepsTheOthersAllocationsAndTaskCountsAndIsIndependent() {
        ClusterState cluster = new ClusterState(List.of(new NodeSpec("a", NODE), new NodeSpec("b", NODE)));
        cluster.allocate("a", TASK);
        cluster.allocate("a", TASK);
        cluster.allocate("a", TASK);
        cluster.allocate("b", TASK);

        ClusterState view = cluster.without(Set.of("b"));
        assertFalse(view.hasNode("b"));
        assertEquals(1, view.size());
        assertEquals(3, view.node("a").runningTasks());
        assertEquals(TASK.times(3), view.node("a").allocated());

        view.allocate("a", TASK);
        assertEquals(3, cluster.node("a").runningTasks(), "the copy shares no state with the original");
        assertEquals(4, view.node("a").runningTasks());
    }

    @Test
    void aNodeIsNeverOverAllocated() {
        ClusterState cluster = new ClusterState(List.of(new NodeSpec("a", Resources.ofGpus(1, 96, 384))));
        cluster.allocate("a", TASK);
        assertThrows(IllegalStateException.class, () -> cluster.allocate("a", TASK));
        assertEquals(1, cluster.node("a").runningTasks());
    }

    @Test
    void anAllocationHeldBeyondCapacityLeavesNothingFreeUntilEnoughIsReleased() {
        ClusterState cluster = new ClusterState(List.of(new NodeSpec("a", Resources.ofGpus(1, 96, 384))));
        cluster.allocate("a", TASK);
        cluster.hold("a", TASK);
        assertEquals(TASK.times(2), cluster.node("a").allocated());
        assertEquals(Resources.ZERO.gpuMilli(), cluster.node("a").free().gpuMilli(), "over-held: no GPU free, not -1");
        assertFalse(cluster.node("a").fits(TASK));
        cluster.release("a", TASK);
        assertThrows(IllegalStateException.class, () -> cluster.allocate("a", TASK), "still full after one release");
        cluster.release("a", TASK);
        cluster.allocate("a", TASK);
        assertEquals(1, cluster.node("a").runningTasks());
    }
}
