package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.trace.NodeShape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplayCheckTest {

    private static final List<NodeSpec> NODES = NodeShape.ALIBABA_G2.nodes(2);

    /** Jobs with true durations, 30 s apart: the check sets of this test and PromotionGateTest. */
    static List<JobRequest> jobs(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<JobRequest> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new JobRequest("j" + i, "u" + rng.nextInt(3), 1 + rng.nextInt(2),
                    Resources.ofGpus(1 + rng.nextInt(4), 4, 16), i * 30.0, 0, Double.NaN, 60 + rng.nextInt(3000)));
        }
        return out;
    }

    @Test
    void anAgentAgainstItselfTies() throws IOException {
        try (SacAgent a = SacCheckpoint.load(SacPolicy.DEFAULT_CHECKPOINT);
             SacAgent b = SacCheckpoint.load(SacPolicy.DEFAULT_CHECKPOINT)) {
            ReplayCheck.Result r = ReplayCheck.compare(a, b, jobs(60, 3), NODES, 1.0);
            assertEquals(60, r.jobs());
            assertTrue(r.currentAvgJctS() > 0);
            assertEquals(r.currentAvgJctS(), r.candidateAvgJctS(), "same weights, same jobs: same replay");
        }
    }

    @Test
    void nothingToReplayIsAnErrorNamingTheField() {
        try (SacAgent a = SacAgent.create(SacSettings.DEFAULT, 1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ReplayCheck.compare(a, a, List.of(), NODES, 1.0));
            assertTrue(e.getMessage().startsWith("jobs:"), e.getMessage());
        }
    }
}
