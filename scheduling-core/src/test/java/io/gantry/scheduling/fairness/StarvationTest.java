package io.gantry.scheduling.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One tenant floods a 2-node, 16-GPU cluster with long 1-GPU jobs at twice its capacity (ρ ≈ 2); another, at a lower
 * base priority, submits five small jobs spread over the flood. Bound: with fair share on, every small job starts
 * within one flood-job duration plus one priority refresh interval of its submission — it waits at most for the
 * next GPU to free up, because its priority is above the flooder's from its arrival on.
 */
class StarvationTest {

    private static final double FLOOD_DURATION_S = 3_600;
    private static final List<NodeSpec> NODES = List.of(
            new NodeSpec("n1", Resources.ofGpus(8, 96, 384)), new NodeSpec("n2", Resources.ofGpus(8, 96, 384)));

    private static List<JobRequest> workload() {
        List<JobRequest> jobs = new ArrayList<>();
        // 32 GPU-hours offered per hour to 16 GPUs, for 20 hours.
        for (int i = 0; i < 640; i++) {
            jobs.add(new JobRequest("flood-" + i, "flooder", 1, Resources.ofGpus(1, 4, 16), i * 112.5, 10,
                    Double.NaN, FLOOD_DURATION_S));
        }
        for (int i = 0; i < 5; i++) {
            jobs.add(new JobRequest("small-" + i, "modest", 1, Resources.ofGpus(1, 2, 8), 7_200 + i * 10_000, 0,
                    Double.NaN, 300));
        }
        return jobs;
    }

    private static List<Double> smallJobWaits(FairShareTracker.Settings fair) {
        SimulationResult r = new Simulator(NODES, new KubeDefaultPolicy(), null, fair).run(workload(), null);
        assertTrue(r.unfinished().isEmpty());
        List<Double> waits = new ArrayList<>();
        for (JobOutcome o : r.outcomes()) {
            if (o.user().equals("modest")) {
                waits.add(o.firstStart() - o.submit());
            }
        }
        assertEquals(5, waits.size());
        return waits;
    }

    @Test
    void smallJobsOfALowPriorityTenantStartWithinOneFloodJobDuration() {
        FairShareTracker.Settings fair = FairShareTracker.Settings.DEFAULT;
        double bound = FLOOD_DURATION_S + fair.refreshIntervalS();
        for (double wait : smallJobWaits(fair)) {
            assertTrue(wait <= bound, "a small job waited " + wait + " s, bound " + bound + " s");
        }
    }

    @Test
    void withoutFairShareTheSameJobsStarve() {
        double longest = smallJobWaits(null).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        assertTrue(longest > 5 * FLOOD_DURATION_S, "the scenario must starve without fair share: " + longest);
    }

    /**
     * A 16-GPU gang (two whole nodes) with the highest priority, among 1-GPU jobs that arrive every 100 s for
     * 20,000 s and run 1,500 s each (about 15 of the 16 GPUs busy): without a reservation no node is ever empty
     * while they arrive, so the gang waits for the stream to end; with one after an hour's wait, the reserved nodes
     * drain within one small-job duration.
     */
    @Test
    void aReservationStartsAStarvingGangWithinOneSmallJobDurationOfItsWait() {
        List<JobRequest> jobs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            jobs.add(new JobRequest("small-" + i, "many", 1, Resources.ofGpus(1, 4, 16), i * 100.0, 0, Double.NaN, 1_500));
        }
        jobs.add(new JobRequest("gang", "few", 2, Resources.ofGpus(8, 96, 384), 50, 10, Double.NaN, 1_000));
        double reserveAfterS = 3_600;
        double without = gangWait(new KubeDefaultPolicy(), jobs);
        double with = gangWait(new StarvationReservation(new KubeDefaultPolicy(), reserveAfterS), jobs);
        assertTrue(without > 19_000, "without a reservation the gang waits for the stream to end: " + without);
        assertTrue(with >= reserveAfterS && with <= reserveAfterS + 100 + 1_500,
                "reserved after an hour (next event within 100 s), drained within one 1,500 s job: " + with);
    }

    private static double gangWait(io.gantry.scheduling.framework.SchedulingPolicy policy, List<JobRequest> jobs) {
        SimulationResult r = new Simulator(NODES, policy, null, null).run(jobs, null);
        assertTrue(r.unfinished().isEmpty());
        return r.outcomes().stream().filter(o -> o.id().equals("gang")).findFirst().map(o -> o.firstStart() - o.submit())
                .orElseThrow();
    }
}
