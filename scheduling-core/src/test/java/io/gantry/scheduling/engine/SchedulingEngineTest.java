package io.gantry.scheduling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The round rules both the simulator and the live scheduler get from the engine. */
class SchedulingEngineTest {

    private static final Resources ONE_GPU = new Resources(1000, 1000, 1024);

    /** A policy that answers each round with what {@code rule} returns and remembers what it saw. */
    private static class Scripted implements SchedulingPolicy {
        final Function<SchedulingContext, Decision> rule;
        final List<SchedulingContext> seen = new ArrayList<>();

        Scripted(Function<SchedulingContext, Decision> rule) {
            this.rule = rule;
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public Decision decide(SchedulingContext ctx) {
            seen.add(ctx);
            return rule.apply(ctx);
        }
    }

    private static JobRequest job(String id, int tasks) {
        return new JobRequest(id, "u", tasks, ONE_GPU, 0, 0, Double.NaN, 100);
    }

    private static SchedulingEngine engine(SchedulingPolicy p, boolean preemption) {
        ClusterState cluster = new ClusterState(List.of(new NodeSpec("n1", new Resources(2000, 8000, 8192)),
                new NodeSpec("n2", new Resources(2000, 8000, 8192))));
        return new SchedulingEngine(p, cluster, Allocator.of(cluster), preemption);
    }

    @Test
    void policiesSeeEveryRunningJobWithItsPreemptibleFlag() {
        Scripted p = new Scripted(ctx -> ctx.pending().isEmpty() ? Decision.placeOnly(List.of())
                : Decision.placeOnly(List.of(new Placement(ctx.pending().get(0).id(),
                        List.of(ctx.pending().get(0).id().equals("a") ? "n1" : "n2")))));
        SchedulingEngine e = engine(p, true);
        e.submit(job("a", 1), false);
        e.round(0);
        e.submit(job("b", 1), true);
        e.round(1);
        e.submit(job("c", 1), true);
        e.round(2);
        List<RunningJob> seen = p.seen.get(2).running();
        assertEquals(List.of("a", "b"), seen.stream().map(r -> r.job().id()).toList());
        assertFalse(seen.get(0).preemptible(), "a was submitted as not preemptible");
        assertTrue(seen.get(1).preemptible());
    }

    @Test
    void policiesSeeWhichPendingJobsMayNotBeStoppedOnceStarted() {
        for (boolean preemption : new boolean[] {true, false}) {
            Scripted p = new Scripted(ctx -> Decision.placeOnly(List.of()));
            SchedulingEngine e = engine(p, preemption);
            e.submit(job("a", 1), false);
            e.submit(job("b", 1), true);
            e.round(0);
            assertEquals(preemption ? Set.of("a") : Set.of("a", "b"), p.seen.get(0).pendingNotPreemptible(),
                    "submitted as not preemptible, or every job where the engine does not preempt; preemption "
                            + preemption);
        }
    }

    /** A policy that places {@code a} on n1 while nothing runs, then asks to stop {@code a}. */
    private static Scripted placeAThenStopIt() {
        return new Scripted(ctx -> ctx.running().isEmpty()
                ? Decision.placeOnly(List.of(new Placement("a", List.of("n1"))))
                : new Decision(List.of(), List.of("a"), Double.NaN));
    }

    /** An engine where {@code a} was placed in the round at 0 and {@code b} has been submitted since. */
    private static SchedulingEngine aRunningAndBWaiting(SchedulingPolicy p, boolean preemption) {
        SchedulingEngine e = engine(p, preemption);
        e.submit(job("a", 1), true);
        e.round(0);
        e.submit(job("b", 1), true);
        return e;
    }

    @Test
    void withoutPreemptionNoRunningJobIsPreemptibleAndAVictimFailsTheRound() {
        Scripted p = placeAThenStopIt();
        SchedulingEngine e = aRunningAndBWaiting(p, false);
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> e.round(1));
        assertTrue(ex.getMessage().contains("not preemptible"), ex.getMessage());
        assertFalse(p.seen.get(1).running().get(0).preemptible());
    }

    @Test
    void aVictimIsAlwaysStoppedAndReleased() {
        SchedulingEngine e = aRunningAndBWaiting(placeAThenStopIt(), true);
        SchedulingEngine.Round r = e.round(5);
        assertEquals(List.of("a"), r.stopped().stream().map(x -> x.job().id()).toList());
        assertEquals(0, e.runningCount());
        assertEquals(0, e.cluster().node("n1").allocated().gpuMilli(), "the victim's room is free at once");
    }

    @Test
    void aGangPlacedOnTooFewNodesFailsTheRound() {
        SchedulingEngine e = engine(new Scripted(ctx -> Decision.placeOnly(List.of(new Placement("g", List.of("n1"))))),
                true);
        e.submit(job("g", 2), true);
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> e.round(0));
        assertTrue(ex.getMessage().contains("1 of 2 tasks"), ex.getMessage());
    }

    @Test
    void aWakeUpIsKeptAndMakesTheNextRoundLookAtEveryJob() {
        Scripted p = new Scripted(ctx -> new Decision(List.of(), List.of(), ctx.now() + 30)) {
            @Override
            public boolean skipsJobsThatDoNotFit() {
                return true;
            }
        };
        SchedulingEngine e = engine(p, true);
        e.submit(job("a", 1), true);
        assertTrue(e.round(10).ran());
        assertEquals(40, e.wakeAt());
        assertFalse(e.round(20).ran(), "nothing new, nothing freed, not yet woken: no round");
        assertTrue(e.round(40).ran(), "the wake-up brings a round over the whole queue");
        assertEquals(List.of("a"), p.seen.get(1).pending().stream().map(JobRequest::id).toList());
    }
}
