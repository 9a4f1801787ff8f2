package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gantry.events.Preemption;
import io.gantry.scheduling.model.Resources;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoppingJobsTest {

    private static LiveStint on(int attempt, String... nodes) {
        return new LiveStint(null, List.of(nodes), new Resources(1000, 1000, 1024), attempt, 0, 0, 0);
    }

    @Test
    void aPlacementCarriesTheStopsOfItsNodesAndOfItsRoundOnly() {
        StoppingJobs stopping = new StoppingJobs();
        stopping.put("a", on(1, "n1", "n2"));
        stopping.put("b", on(2, "n3"));
        stopping.put("c", on(1, "n2"));
        stopping.put("d", on(3, "n4"));

        assertEquals(List.of(new Preemption("a", 1), new Preemption("c", 1), new Preemption("d", 3)),
                stopping.stopsBefore("none", List.of("n2"), Set.of("d")));
        assertEquals(List.of(), stopping.stopsBefore("none", List.of("n5"), Set.of("gone")));
    }

    @Test
    void aConfirmedStopLeavesTheIndexOfEveryNodeItHeld() {
        StoppingJobs stopping = new StoppingJobs();
        stopping.put("a", on(1, "n1", "n2", "n1"));
        stopping.put("b", on(1, "n2"));

        assertEquals(1, stopping.remove("a").attempt());
        assertNull(stopping.remove("a"));
        assertEquals(List.of(), stopping.stopsBefore("none", List.of("n1"), Set.of()));
        assertEquals(List.of(new Preemption("b", 1)), stopping.stopsBefore("none", List.of("n1", "n2"), Set.of()));
        assertEquals(1, stopping.size());
    }

    @Test
    void aJobStoppedAgainIsIndexedOnlyUnderItsNewNodes() {
        StoppingJobs stopping = new StoppingJobs();
        stopping.put("a", on(1, "n1"));
        stopping.put("a", on(2, "n2"));

        assertEquals(List.of(), stopping.stopsBefore("none", List.of("n1"), Set.of()));
        assertEquals(List.of(new Preemption("a", 2)), stopping.stopsBefore("none", List.of("n2"), Set.of()));
    }
}
