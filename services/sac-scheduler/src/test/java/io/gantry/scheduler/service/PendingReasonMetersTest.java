package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.events.Events;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.scheduler.service.PendingReasonMeters.Reason;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingReasonMetersTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

    /** Two nodes of 8 GPU / 16 vCPU / 64 GiB; n1 has 6 GPUs, 2 vCPUs and 8 GiB taken. */
    private static ClusterState cluster() {
        Resources node = new Resources(8000, 16000, 65536);
        ClusterState c = new ClusterState(List.of(new NodeSpec("n1", node), new NodeSpec("n2", node)));
        c.allocate("n1", new Resources(6000, 2000, 8192));
        return c;
    }

    @Test
    void theFirstResourceThatCannotHoldEveryTaskIsTheReason() {
        var nodes = cluster().nodes();
        // Free: n1 2 GPU / 14 vCPU / 56 GiB, n2 8 / 16 / 64.
        assertEquals(Reason.WAITING_FOR_POLICY, PendingReasonMeters.reason(1, new Resources(8000, 1000, 1024), nodes));
        assertEquals(Reason.WAITING_FOR_POLICY, PendingReasonMeters.reason(5, new Resources(2000, 1000, 1024), nodes));
        assertEquals(Reason.INSUFFICIENT_GPU, PendingReasonMeters.reason(6, new Resources(2000, 1000, 1024), nodes));
        assertEquals(Reason.INSUFFICIENT_GPU, PendingReasonMeters.reason(1, new Resources(9000, 1000, 1024), nodes));
        // GPUs enough for 2 tasks (one per node); CPUs for only one task of 15 vCPU.
        assertEquals(Reason.INSUFFICIENT_CPU, PendingReasonMeters.reason(2, new Resources(2000, 15000, 1024), nodes));
        assertEquals(Reason.INSUFFICIENT_MEMORY, PendingReasonMeters.reason(2, new Resources(2000, 1000, 60000), nodes));
        // CPU-only jobs are never short of GPUs.
        assertEquals(Reason.WAITING_FOR_POLICY, PendingReasonMeters.reason(30, new Resources(0, 1000, 1024), nodes));
        assertEquals(Reason.NO_SCHEDULABLE_NODE, PendingReasonMeters.reason(1, new Resources(1000, 1000, 1024), List.of()));
    }

    @Test
    void theCountsCoverTheWholeQueueAndLeaveOutCordonedNodes() {
        LiveEngine state = new LiveEngine(new KubeDefaultPolicy(), "builtin-1", 0, JobClock.WALL, false);
        ResourceAmounts node = new ResourceAmounts(8000, 96000, 393216);
        state.updateNode(new NodeMetrics(Events.newId(), 1, T0, "n1", node, ResourceAmounts.ZERO, null, null, null, 0,
                true, false, "test"));
        state.enqueue(job("fits", 1, 4000));
        state.enqueue(job("too-many-gpus", 3, 4000));
        state.enqueue(job("cpu-heavy", 2, 0, 60000));
        assertEquals(Map.of(Reason.WAITING_FOR_POLICY, 1, Reason.INSUFFICIENT_GPU, 1, Reason.INSUFFICIENT_CPU, 1),
                PendingReasonMeters.classify(state));
        // Cordoned: the only node is no longer schedulable.
        state.updateNode(new NodeMetrics(Events.newId(), 1, T0, "n1", node, ResourceAmounts.ZERO, null, null, null, 0,
                false, false, "test"));
        assertEquals(Map.of(Reason.NO_SCHEDULABLE_NODE, 3), PendingReasonMeters.classify(state));
    }

    private static JobTuned job(String id, int tasks, long gpuMilli) {
        return job(id, tasks, gpuMilli, 1000);
    }

    private static JobTuned job(String id, int tasks, long gpuMilli, long cpuMilli) {
        return new JobTuned(Events.newId(), 1, T0, id, "u", id, null, T0, tasks,
                new ResourceAmounts(gpuMilli, cpuMilli, 1024), null, null, 10.0, null, List.of(), "test");
    }
}
