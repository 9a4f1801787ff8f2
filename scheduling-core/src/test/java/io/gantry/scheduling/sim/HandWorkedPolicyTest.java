package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.policy.TiresiasPolicy;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tiny hand-built traces whose JCTs are worked out by hand in the comments, per policy. */
class HandWorkedPolicyTest {

    private static List<NodeSpec> nodes(int count, int gpus) {
        List<NodeSpec> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new NodeSpec("n" + i, Resources.ofGpus(gpus, 8, 16)));
        }
        return out;
    }

    private static JobRequest job(String id, String user, double submit, int gpus, double duration) {
        return new JobRequest(id, user, 1, Resources.ofGpus(gpus, 1, 1), submit, 0, Double.NaN, duration);
    }

    private static Map<String, Double> jcts(List<NodeSpec> nodes, SchedulingPolicy policy, List<JobRequest> jobs) {
        SimulationResult r = new Simulator(nodes, policy, new HistoryDurationPredictor()).run(jobs, null);
        assertTrue(r.unfinished().isEmpty(), "unfinished: " + r.unfinished());
        Map<String, Double> out = new HashMap<>();
        for (JobOutcome o : r.outcomes()) {
            out.put(o.id(), o.jctS());
        }
        return out;
    }

    private static Map<String, Double> jcts(List<NodeSpec> nodes, String policy, List<JobRequest> jobs) {
        return jcts(nodes, PolicyRegistry.create(policy), jobs);
    }

    /**
     * Two nodes × 2 GPUs. x (1 GPU, 10 s) at 0, y (1 GPU, 10 s) at 1, z (2 GPUs, 5 s) at 2.
     * kube-default spreads x → n0, y → n1: no node has 2 free GPUs until x ends at 10; z runs 10–15.
     * binpack stacks x and y on n0; z starts on n1 at 2 and ends at 7.
     */
    @Test
    void binpackAvoidsTheFragmentationThatSpreadingCauses() {
        List<JobRequest> jobs = List.of(job("x", "u", 0, 1, 10), job("y", "u", 1, 1, 10), job("z", "u", 2, 2, 5));
        assertEquals(Map.of("x", 10.0, "y", 10.0, "z", 13.0), jcts(nodes(2, 2), "kube-default", jobs));
        assertEquals(Map.of("x", 10.0, "y", 10.0, "z", 5.0), jcts(nodes(2, 2), "binpack", jobs));
    }

    /**
     * One node × 2 GPUs. u1 submits a1 (10 s), a2 (20 s), a3 (10 s) at 0; u2 submits b1 (10 s) at 1; 1 GPU each.
     * FIFO: a1, a2 at 0; at 10 a3 (older than b1) takes the free GPU until 20; b1 runs 20–30 → JCT 29.
     * DRF: at 10 u1 holds half the GPUs, u2 none, so b1 runs 10–20 (JCT 19) and a3 waits until 20 (JCT 30).
     */
    @Test
    void drfServesTheTenantWithTheSmallestDominantShare() {
        List<JobRequest> jobs = List.of(job("a1", "u1", 0, 1, 10), job("a2", "u1", 0, 1, 20), job("a3", "u1", 0, 1, 10),
                job("b1", "u2", 1, 1, 10));
        assertEquals(Map.of("a1", 10.0, "a2", 20.0, "a3", 20.0, "b1", 29.0), jcts(nodes(1, 2), "kube-default", jobs));
        assertEquals(Map.of("a1", 10.0, "a2", 20.0, "a3", 30.0, "b1", 19.0), jcts(nodes(1, 2), "drf", jobs));
    }

    /**
     * One node × 2 GPUs. A (2 GPUs, 20 s) at 0, B (1 GPU, 2 s) at 3.
     * kube-default: A 0–20, B 20–22 → 20 and 19.
     * tiresias with one threshold of 10 GPU-s: at 3 A has 6 GPU-s, same queue as B, no preemption; at 5 A
     * reaches 10 GPU-s and drops to queue 1, B preempts it and runs 5–7; A resumes at 7 with 15 s left → 22.
     * srpt-oracle: at 3 A has 17 s left, B 2 s → B runs 3–5; A resumes at 5 with 17 s left → 22.
     */
    @Test
    void preemptivePoliciesStopTheBigJobAtTheRightMoment() {
        List<JobRequest> jobs = List.of(job("A", "u", 0, 2, 20), job("B", "u", 3, 1, 2));
        assertEquals(Map.of("A", 20.0, "B", 19.0), jcts(nodes(1, 2), "kube-default", jobs));
        assertEquals(Map.of("A", 22.0, "B", 4.0), jcts(nodes(1, 2), new TiresiasPolicy(new double[] {10}), jobs));
        assertEquals(Map.of("A", 22.0, "B", 2.0), jcts(nodes(1, 2), "srpt-oracle", jobs));
    }

    /** The same srpt-oracle replay where resuming costs 5 s: A resumes at 5 with 17 + 5 s left → 27; B is unchanged. */
    @Test
    void aPreemptionCostLengthensOnlyTheResumedJob() {
        List<JobRequest> jobs = List.of(job("A", "u", 0, 2, 20), job("B", "u", 3, 1, 2));
        SimulationResult r = new Simulator(nodes(1, 2), PolicyRegistry.create("srpt-oracle"), new HistoryDurationPredictor())
                .withPreemptionCost(5).run(jobs, null);
        Map<String, Double> jct = new HashMap<>();
        r.outcomes().forEach(o -> jct.put(o.id(), o.jctS()));
        assertEquals(Map.of("A", 27.0, "B", 2.0), jct);
        JobOutcome a = r.outcomes().stream().filter(o -> o.id().equals("A")).findFirst().orElseThrow();
        assertEquals(List.of(1, 1, 0, 5.0), List.of(a.preemptions(), a.restarts(), a.resizes(), a.restartS()),
                "one preemption: one restart, charged the 5 s cost (a fixed-duration job has no restart delay)");
        assertEquals(new RestartMetrics(0.5, 0, 0.5, 5), RunMetrics.of(r, 2).restarts());
        assertThrows(IllegalArgumentException.class, () -> new Simulator(nodes(1, 2),
                PolicyRegistry.create("srpt-oracle"), new HistoryDurationPredictor()).withPreemptionCost(-1));
    }

    /**
     * One node × 1 GPU. At 0: a (user S, 1 s), b (user L, 3 s), x (user X, 10 s); FIFO among them since
     * nothing has finished yet: a 0–1, b 1–4, x 4–14. Then c (L, 3 s) at 5 and d (S, 1 s) at 6 wait for x.
     * qssf predicts c from L's history (3 s) and d from S's (1 s), so d runs 14–15 and c 15–18.
     * kube-default runs them in arrival order: c 14–17, d 17–18.
     */
    @Test
    void qssfRunsThePredictedShortJobFirst() {
        List<JobRequest> jobs = List.of(job("a", "S", 0, 1, 1), job("b", "L", 0, 1, 3), job("x", "X", 0, 1, 10),
                job("c", "L", 5, 1, 3), job("d", "S", 6, 1, 1));
        assertEquals(Map.of("a", 1.0, "b", 4.0, "x", 14.0, "c", 13.0, "d", 9.0), jcts(nodes(1, 1), "qssf", jobs));
        assertEquals(Map.of("a", 1.0, "b", 4.0, "x", 14.0, "c", 12.0, "d", 12.0), jcts(nodes(1, 1), "kube-default", jobs));
    }

    /**
     * Two nodes × 8 GPUs. s (1 GPU, 5 s) at 0 lands on n0; the gang g (2 tasks × 8 GPUs, 10 s) at 1 needs
     * both whole nodes, so it waits until s ends at 5 and runs 5–15 (JCT 14). s2 (1 GPU, 1 s) at 2 is
     * not held back by the waiting gang: it runs 2–3.
     */
    @Test
    void aGangStartsOnlyWhenEveryTaskHasAPlace() {
        JobRequest gang = new JobRequest("g", "u", 2, Resources.ofGpus(8, 1, 1), 1, 0, Double.NaN, 10);
        List<JobRequest> jobs = List.of(job("s", "u", 0, 1, 5), gang, job("s2", "u", 2, 1, 1));
        assertEquals(Map.of("s", 5.0, "g", 14.0, "s2", 1.0), jcts(nodes(2, 8), "kube-default", jobs));
    }
}
