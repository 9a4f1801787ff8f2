package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingExplanationTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

    @Test
    void aPendingJobIsExplainedWithTheAmountsAndTheJobsAhead() {
        LiveEngine state = new LiveEngine(new KubeDefaultPolicy(), "builtin-1", 0, JobClock.WALL, false);
        // Two small nodes, free: n1 2 GPUs, n2 1 GPU.
        state.updateNode(node("n1", 2000));
        state.updateNode(node("n2", 1000));
        state.enqueue(job("first", 1, 1000));
        state.enqueue(job("second", 1, 1000));
        state.enqueue(job("second-b", 1, 1000));
        state.enqueue(job("wide", 4, 1000));

        PendingExplanation wide = PendingExplanation.of(state, "wide").orElseThrow();
        assertEquals(4, wide.position());
        assertEquals(3, wide.ahead());
        assertEquals("insufficient_gpu", wide.code());
        assertEquals("needs 4 GPUs (4 tasks of 1), largest free on one node 2, 3 free in all; "
                + "3 jobs that arrived before it still wait", wide.reason());

        PendingExplanation first = PendingExplanation.of(state, "first").orElseThrow();
        assertEquals("waiting_for_policy", first.code());
        assertTrue(first.reason().endsWith("; no job ahead of it"), first.reason());
        assertTrue(PendingExplanation.of(state, "unknown").isEmpty());
    }

    private static NodeMetrics node(String name, long gpuMilli) {
        return new NodeMetrics(Events.newId(), 1, T0, name, new ResourceAmounts(gpuMilli, 96000, 393216),
                ResourceAmounts.ZERO, null, null, null, 0, true, false, "test");
    }

    private static JobTuned job(String id, int tasks, long gpuMilli) {
        return new JobTuned(Events.newId(), 1, T0, id, "u", id, null, T0, tasks,
                new ResourceAmounts(gpuMilli, 1000, 1024), null, null, 10.0, null, List.of(), "test");
    }
}
