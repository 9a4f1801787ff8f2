package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundQueueTest {

    private static JobRequest job(String id, double gpus, double submit, double predicted) {
        return new JobRequest(id, "u", 1, Resources.ofGpus(gpus, 4, 16), submit, 0, predicted, 1000);
    }

    private static RoundQueue queue(List<JobRequest> pending) {
        ClusterState c = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384))));
        return new RoundQueue(pending, new TentativeCluster(c));
    }

    @Test
    void ordersByThePriorsUrgencyWithTiesByArrivalAndForgetsTakenJobs() {
        // urgency = predicted × GPUs: a 400, b 100, c 400 (ties with a, arrived later), d unknown (last).
        List<JobRequest> pending = List.of(job("a", 1, 0, 400), job("b", 2, 1, 50), job("c", 4, 2, 100),
                job("d", 1, 3, Double.NaN));
        RoundQueue q = queue(pending);
        assertEquals(List.of("b", "a", "c", "d"), byUrgency(q));
        assertEquals(8_000, q.queuedGpuMilli());

        List<JobRequest> before = q.waitingJobs();
        assertEquals("a", q.take("a").id());
        assertThrows(java.util.ConcurrentModificationException.class, () -> before.get(0),
                "a view read after a take would not be what the decision saw");
        assertEquals(List.of("b", "c", "d"), byUrgency(q));
        assertEquals(List.of("b", "c", "d"), q.waitingJobs().stream().map(JobRequest::id).toList());
        assertEquals(3, q.waiting());
        assertEquals(7_000, q.queuedGpuMilli());
        assertThrows(IllegalStateException.class, () -> q.take("a"), "a job is taken once");
        assertThrows(IllegalStateException.class, () -> q.take("nobody"));

        q.take("b");
        q.take("c");
        q.take("d");
        assertTrue(q.isEmpty());
        assertEquals(0, q.queuedGpuMilli());
    }

    private static List<String> byUrgency(RoundQueue q) {
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < q.size(); k++) {
            int i = q.byUrgency(k);
            if (!q.taken(i)) {
                ids.add(q.job(i).id());
            }
        }
        return ids;
    }
}
