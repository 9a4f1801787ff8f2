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
}
