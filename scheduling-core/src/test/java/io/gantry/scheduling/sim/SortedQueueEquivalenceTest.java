package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.OrderedQueueScheduling;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.TraceFormat;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The simulator keeps the pending queue sorted between rounds for policies with a fixed queue order.
 * That is only an optimisation: every outcome must equal the replay in which the policy is handed the
 * whole queue and sorts it itself each round, as the live scheduler does.
 */
class SortedQueueEquivalenceTest {

    private static final List<NodeSpec> CLUSTER = NodeShape.ALIBABA_G2.nodes(13);

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource({"PHILLY,kube-default", "PHILLY,binpack", "PHILLY,qssf", "OPENB,kube-default", "OPENB,binpack"})
    void sortedQueueGivesTheSameReplayAsSortingEveryRound(TraceFormat format, String policy) {
        var trace = format.loader().load(format.defaultFile(), NodeShape.ALIBABA_G2);
        var jobs = WorkloadShaper.shape(trace.jobs(), CLUSTER, 1.2, 4000, 11).jobs();
        SchedulingPolicy direct = PolicyRegistry.create(policy);
        assertNotNull(((OrderedQueueScheduling) direct).fixedQueueOrder(), policy + " should opt in");

        SimulationResult sorted = new Simulator(CLUSTER, direct, new HistoryDurationPredictor()).run(jobs, null);
        SimulationResult resorted = new Simulator(CLUSTER, new EveryRound(PolicyRegistry.create(policy)),
                new HistoryDurationPredictor()).run(jobs, null);

        assertEquals(resorted.outcomes(), sorted.outcomes());
        assertEquals(resorted.unfinished(), sorted.unfinished());
    }

    /**
     * The engine keeps a sorted queue only for a policy that says its order is fixed; these orders change while jobs
     * wait (shares, attained service, remaining time), so none may say so. The same check on kube-default, whose order
     * is fixed, must say the opposite: the check can fail.
     */
    @ParameterizedTest
    @CsvSource({"drf", "tiresias", "srpt-oracle"})
    void ordersThatChangeWhileJobsWaitAreNeverCached(String policy) {
        assertFalse(cachesItsOrder(PolicyRegistry.create(policy)), policy + " must not have its queue kept sorted");
        assertTrue(cachesItsOrder(PolicyRegistry.create("kube-default")), "the check sees a fixed order where there is one");
    }

    private static boolean cachesItsOrder(SchedulingPolicy p) {
        return p instanceof OrderedQueueScheduling o && o.fixedQueueOrder() != null;
    }

    /** Hides the fixed-order capability, so the simulator hands over the whole queue every round. */
    private record EveryRound(SchedulingPolicy inner) implements SchedulingPolicy {
        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public Decision decide(SchedulingContext ctx) {
            return inner.decide(ctx);
        }

        @Override
        public boolean skipsJobsThatDoNotFit() {
            return inner.skipsJobsThatDoNotFit();
        }
    }
}
