package io.gantry.scheduling.pollux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.PolluxWorkloadLoader;
import io.gantry.scheduling.trace.SharedTraces;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The first 40 jobs of Pollux's workload-1 replayed under {@code pollux} on Pollux's 16 × 4 GPUs: every job
 * finishes, no round ever holds more GPUs than a node has, re-allocations happen only on the 60 s cadence (and
 * its follow-up), and running jobs do change GPU count.
 */
class PolluxPolicySimulationTest {

    private static final Path WORKLOAD = SharedTraces.tracesDir().resolve("philly-pollux/workloads/workload-1.csv");
    private static final NodeShape SHAPE = new NodeShape(4, 64, 256);

    @Test
    void resizesRunningJobsOnTheSixtySecondCadenceWithinTheCluster() {
        List<NodeSpec> nodes = SHAPE.nodes(16);
        List<JobRequest> jobs = new PolluxWorkloadLoader().load(WORKLOAD, SHAPE).jobs().subList(0, 40);
        double t0 = jobs.get(0).submitTime();
        Map<String, Integer> lastGpus = new HashMap<>();
        List<String> problems = new ArrayList<>();
        int[] resized = {0};
        Simulator.RoundObserver audit = (now, started, stopped) -> {
            double sinceTick = (now - t0) % PolluxPolicy.INTERVAL_S;
            boolean onCadence = sinceTick < 1e-6 || Math.abs(sinceTick - PolluxPolicy.FOLLOW_UP_S) < 1e-6
                    || PolluxPolicy.INTERVAL_S - sinceTick < 1e-6;
            if (!(started.isEmpty() && stopped.isEmpty()) && !onCadence) {
                problems.add("allocation changed off the 60 s cadence at " + now);
            }
            for (RunningJob r : started) {
                if (r.job().gpus() != r.nodes().size() || r.job().tasks() != r.nodes().size()) {
                    problems.add(r.job().id() + " runs " + r.job().gpus() + " GPUs on " + r.nodes().size() + " slots");
                }
                Integer before = lastGpus.put(r.job().id(), r.nodes().size());
                resized[0] += before != null && before != r.nodes().size() ? 1 : 0;
            }
        };
        // The cluster refuses any over-allocation (ClusterState.allocate throws), so a replay that ends proves no
        // node ever held more than its GPUs; maxGpuAllocRatioSeen says the same for the whole cluster.
        SimulationResult r = new Simulator(nodes, new PolluxPolicy(), null).observedBy(audit).run(jobs, null);

        assertTrue(r.unfinished().isEmpty(), "unfinished: " + r.unfinished());
        assertEquals(40, r.outcomes().size());
        assertTrue(problems.isEmpty(), String.join("; ", problems.subList(0, Math.min(5, problems.size()))));
        assertTrue(r.maxGpuAllocRatioSeen() <= 1.0 + 1e-12);
        assertTrue(resized[0] > 0, "no running job ever changed GPU count");
    }
}
