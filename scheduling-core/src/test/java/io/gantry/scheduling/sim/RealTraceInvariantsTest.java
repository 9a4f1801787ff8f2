package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.DecoratingPolicy;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.predict.HistoryDurationPredictor;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceFormat;
import io.gantry.scheduling.trace.WorkloadShaper;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays of the real traces under every policy, audited decision by decision: no node over-allocated,
 * gangs whole, every job finishing exactly once, JCT never shorter than the run time, allocation ≤ 1.
 */
class RealTraceInvariantsTest {

    private static final List<NodeSpec> CLUSTER = NodeShape.ALIBABA_G2.nodes(13);
    private static final Map<TraceFormat, Trace> TRACES = new HashMap<>();

    static Stream<Arguments> replays() {
        return Stream.of(TraceFormat.OPENB, TraceFormat.PHILLY, TraceFormat.POLLUX).flatMap(f ->
                PolicyRegistry.generalNames().stream().map(p -> Arguments.of(f, p)));
    }

    private static synchronized Trace trace(TraceFormat f) {
        return TRACES.computeIfAbsent(f, x -> x.loader().load(x.defaultFile(), NodeShape.ALIBABA_G2));
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("replays")
    void everyInvariantHolds(TraceFormat format, String policyName) {
        // Philly is cut to a 6,000-job window to keep the suite short; ρ = 1.2 keeps a queue building.
        int window = format == TraceFormat.PHILLY ? 6000 : 0;
        WorkloadShaper.Shaped shaped = WorkloadShaper.shape(trace(format).jobs(), CLUSTER, 1.2, window, 7);
        AuditingPolicy audited = new AuditingPolicy(PolicyRegistry.create(policyName));
        SimulationResult r = new Simulator(CLUSTER, audited, new HistoryDurationPredictor()).run(shaped.jobs(), null);

        assertTrue(r.unfinished().isEmpty(), "unfinished " + r.unfinished().size());
        assertEquals(shaped.jobs().size(), r.outcomes().size());
        Set<String> seen = new HashSet<>();
        Map<String, JobRequest> byId = new HashMap<>();
        shaped.jobs().forEach(j -> byId.put(j.id(), j));
        for (JobOutcome o : r.outcomes()) {
            assertTrue(seen.add(o.id()), "finished twice: " + o.id());
            JobRequest j = byId.get(o.id());
            assertEquals(j.trueDurationS(), o.durationS());
            assertTrue(o.firstStart() >= o.submit(), o.id() + " started before it arrived");
            assertTrue(o.jctS() >= o.durationS() - 1e-6 * Math.max(1, o.durationS()), o.id() + " JCT " + o.jctS() + " < duration " + o.durationS());
        }
        assertTrue(r.maxGpuAllocRatioSeen() <= 1.0 + 1e-12);
        assertTrue(r.gpuAllocRatio() <= 1.0 && r.cpuAllocRatio() <= 1.0 && r.memAllocRatio() <= 1.0);
        assertTrue(audited.rounds > 0);
    }

    /** Checks each decision against the cluster the policy saw, then passes it on unchanged. */
    private static final class AuditingPolicy extends DecoratingPolicy {
        int rounds;

        AuditingPolicy(SchedulingPolicy inner) {
            super(inner);
        }

        @Override
        public Decision decide(SchedulingContext ctx) {
            Decision d = inner.decide(ctx);
            rounds++;
            Map<String, Resources> free = new HashMap<>();
            for (NodeState n : ctx.cluster().nodes()) {
                free.put(n.name(), n.free());
            }
            Map<String, RunningJob> running = ctx.runningById();
            for (String id : d.preemptions()) {
                RunningJob r = running.get(id);
                assertTrue(r != null, "preempted a job that is not running: " + id);
                for (String node : r.nodes()) {
                    free.put(node, free.get(node).plus(r.job().perTask()));
                }
            }
            Map<String, JobRequest> pending = new HashMap<>();
            ctx.pending().forEach(j -> pending.put(j.id(), j));
            for (Placement p : d.placements()) {
                JobRequest j = pending.remove(p.jobId());
                assertTrue(j != null, "placed a job that is not pending (or twice): " + p.jobId());
                assertEquals(j.tasks(), p.nodes().size(), "gang " + j.id() + " placed partly");
                for (String node : p.nodes()) {
                    Resources left = free.get(node);
                    assertTrue(left.covers(j.perTask()), "node " + node + " over-allocated by " + j.id());
                    free.put(node, left.minus(j.perTask()));
                }
            }
            return d;
        }
    }
}
