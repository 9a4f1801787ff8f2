package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.UserPriority;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveEngineTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");
    private static final ResourceAmounts NODE = new ResourceAmounts(8000, 96000, 393216);

    private final LiveEngine state = new LiveEngine(new KubeDefaultPolicy(), "builtin-1", 0, JobClock.WALL, false);

    private static NodeMetrics node(String name) {
        return new NodeMetrics(Events.newId(), 1, T0, name, NODE, ResourceAmounts.ZERO, null, null, null, 0, true,
                false, "test");
    }

    private static JobTuned job(String id, String user, int tasks, long gpuMilli, int secondsAfterT0) {
        return new JobTuned(Events.newId(), 1, T0, id, user, id, null, T0.plusSeconds(secondsAfterT0), tasks,
                new ResourceAmounts(gpuMilli, 1000, 1024), null, null, 10.0, null, List.of(), "test");
    }

    @Test
    void nothingIsDecidedBeforeAnyNodeIsKnown() {
        state.enqueue(job("a", "u", 1, 1000, 0));
        assertTrue(state.schedule(T0).isEmpty());
        state.updateNode(node("n1"));
        assertEquals(List.of("n1"), state.schedule(T0).decisions().get(0).nodes());
    }

    @Test
    void aRedeliveredJobIsQueuedOnceAndASecondJobReusingItsIdIsRefusedWithAReason() {
        JobTuned a = job("a", "u", 1, 1000, 0);
        assertTrue(state.enqueue(a));
        assertFalse(state.enqueue(a), "the same event again: a redelivery");
        InvalidEventException e = assertThrows(InvalidEventException.class, () -> state.enqueue(job("a", "u", 1, 1000, 0)));
        assertEquals("jobId", e.violations().get(0).field());
        assertTrue(e.getMessage().contains("already the id of another job"), e.getMessage());
        assertEquals(1, state.pendingCount());
    }

    @Test
    void aJobThatEndedIsStillKnownSoItsRedeliveryIsNotQueuedAgain() {
        state.updateNode(node("n1"));
        JobTuned a = job("a", "u", 1, 1000, 0);
        state.enqueue(a);
        SchedulingDecision d = state.schedule(T0).decisions().get(0);
        state.onLifecycle(new JobCompleted(Events.newId(), 1, T0, "a", "u", d.nodes(), d.perTask(), T0, 10));
        assertFalse(state.enqueue(a), "a redelivery after the job ended queues nothing");
        assertEquals(0, state.pendingCount());
        JobTuned b = job("b", "u", 1, 1000, 0);
        state.enqueue(b);
        assertTrue(state.withdraw("b"));
        assertFalse(state.enqueue(b), "nor does one of a job cancelled in the queue");
        assertThrows(InvalidEventException.class, () -> state.enqueue(job("b", "u", 1, 1000, 0)));
    }

    @Test
    void spreadsLikeKubeDefaultAndWaitsWhenFullThenUsesReleasedCapacity() {
        state.updateNode(node("n1"));
        state.updateNode(node("n2"));
        state.enqueue(job("a", "u", 1, 6000, 0));
        state.enqueue(job("b", "u", 1, 6000, 1));
        state.enqueue(job("c", "u", 1, 6000, 2));
        var first = state.schedule(T0).decisions();
        assertEquals(2, first.size());
        assertEquals("a", first.get(0).jobId());
        assertEquals("b", first.get(1).jobId());
        // LeastAllocated spreads: b goes to the other node.
        assertFalse(first.get(0).nodes().equals(first.get(1).nodes()));
        assertEquals("kube-default", first.get(0).policy());
        assertEquals("builtin-1", first.get(0).policyVersion());
        assertTrue(state.schedule(T0).isEmpty(), "c does not fit while a and b run");
        state.onLifecycle(new JobCompleted(Events.newId(), 1, T0, "a", "u", first.get(0).nodes(),
                first.get(0).perTask(), T0, 10));
        var next = state.schedule(T0).decisions();
        assertEquals("c", next.get(0).jobId());
        assertEquals(first.get(0).nodes(), next.get(0).nodes());
    }

    @Test
    void aRestoredDecisionHoldsItsNodeEvenWhenTheNodeReportsOnlyLater() {
        JobTuned big = job("restored", "u", 1, 8000, 0);
        SchedulingDecision d = new SchedulingDecision(Events.newId(), 1, T0, "restored", "u", List.of("n1"),
                big.perTask(), 10.0, T0, "kube-default", "builtin-1");
        state.restore(RestorePlan.fold(List.of(big), List.of(d), List.of(), JobClock.WALL));
        state.enqueue(job("next", "u", 1, 8000, 1));
        state.updateNode(node("n1"));
        assertTrue(state.schedule(T0).isEmpty(), "n1 is full with the restored job");
        assertEquals(1, state.runningCount());
        state.onLifecycle(new JobCompleted(Events.newId(), 1, T0, "restored", "u", List.of("n1"), big.perTask(), T0, 10));
        assertEquals("next", state.schedule(T0).decisions().get(0).jobId());
        assertFalse(state.enqueue(big), "a restored job is known: its redelivery queues nothing");
    }

    /**
     * The reported crash: with the node already known, the old restore applied every decision before any completion,
     * so two jobs that ran on n1 one after the other refused each other ("node n1 cannot hold ...").
     */
    @Test
    void jobsThatRanOneAfterTheOtherOnANodeAreRestoredWhateverIsKnownFirst() {
        state.updateNode(node("n1"));
        JobTuned a = job("a", "u", 1, 8000, 0);
        JobTuned b = job("b", "u", 1, 8000, 1);
        SchedulingDecision da = new SchedulingDecision(Events.newId(), 1, T0, "a", "u", List.of("n1"), a.perTask(), 10.0,
                T0, "kube-default", "builtin-1");
        SchedulingDecision db = new SchedulingDecision(Events.newId(), 1, T0.plusSeconds(11), "b", "u", List.of("n1"),
                b.perTask(), 10.0, T0, "kube-default", "builtin-1");
        JobCompleted aDone = new JobCompleted(Events.newId(), 1, T0.plusSeconds(10), "a", "u", List.of("n1"),
                a.perTask(), T0, 10);
        state.restore(RestorePlan.fold(List.of(a, b), List.of(da, db), List.of(aDone), JobClock.WALL));
        assertEquals(1, state.runningCount(), "b runs, a has ended");
        assertEquals(8000, state.nodes().get(0).allocated().gpuMilli());
        assertEquals(0, state.pendingCount());
    }

    @Test
    void aCordonedNodeIsNeverChosenAndUncordoningItMakesItUsableAgain() {
        state.updateNode(node("n1"));
        state.updateNode(node("n2"));
        state.updateNode(new NodeMetrics(Events.newId(), 1, T0, "n2", NODE, ResourceAmounts.ZERO, null, null, null, 0,
                false, false, "test"));
        state.enqueue(job("a", "u", 1, 6000, 0));
        state.enqueue(job("b", "u", 1, 6000, 1));
        var first = state.schedule(T0).decisions();
        assertEquals(1, first.size(), "only n1 is schedulable and it holds one such job");
        assertEquals(List.of("n1"), first.get(0).nodes());
        state.updateNode(node("n2"));
        assertEquals(List.of("n2"), state.schedule(T0).decisions().get(0).nodes());
    }

    @Test
    void higherPriorityUsersGoFirst() {
        state.updateNode(node("n1"));
        state.enqueue(job("early", "low", 1, 8000, 0));
        state.enqueue(job("late", "high", 1, 8000, 5));
        state.updatePriority(new UserPriority(Events.newId(), 1, T0, "high", 5, 5, 1, "test"));
        assertEquals("late", state.schedule(T0).decisions().get(0).jobId());
    }

    @Test
    void gangsAreAllOrNothingAndImpossibleJobsAreRejectedWithAReason() {
        state.updateNode(node("n1"));
        state.updateNode(node("n2"));
        state.enqueue(job("gang", "u", 2, 8000, 0));
        state.enqueue(job("too-wide", "u", 3, 8000, 1));
        state.enqueue(job("too-big", "u", 1, 9000, 2));
        SchedulingOutcome out = state.schedule(T0);
        assertEquals(1, out.decisions().size());
        assertEquals(2, out.decisions().get(0).nodes().size());
        assertEquals(List.of("too-wide", "too-big"), out.rejections().stream().map(r -> r.jobId()).toList());
        assertTrue(out.rejections().get(1).reason().contains("no node has that much capacity"));
        assertEquals(0, state.pendingCount());
    }
}
