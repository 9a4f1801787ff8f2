package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceFormat;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterminismTest {

    private static final List<NodeSpec> CLUSTER = NodeShape.ALIBABA_G2.nodes(13);

    private static RunMetrics replay(Trace t, long seed) {
        WorkloadShaper.Shaped s = WorkloadShaper.shape(t.jobs(), CLUSTER, 1.0, 3000, seed);
        SimulationResult r = new Simulator(CLUSTER, PolicyRegistry.create("tiresias"), new HistoryDurationPredictor()).run(s.jobs(), null);
        return RunMetrics.of(r, 104);
    }

    @Test
    void theSameSeedGivesTheSameNumbersAndAnotherSeedAnotherWindow() {
        Trace philly = TraceFormat.PHILLY.loader().load(TraceFormat.PHILLY.defaultFile(), NodeShape.ALIBABA_G2);
        assertEquals(replay(philly, 3), replay(philly, 3));
        assertNotEquals(replay(philly, 3), replay(philly, 4));
    }
}
