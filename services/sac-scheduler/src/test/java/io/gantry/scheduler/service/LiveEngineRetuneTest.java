package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ModelGraph;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Re-tunes of running jobs in the live scheduler (issue 21, live grow and shrink): a new GPU request stops the stint
 * and places the job's next attempt with it, the stop riding in that attempt's decision; updates apply once, a
 * request that can never fit changes nothing that runs, and a restart between the re-tune and its stop re-sizes again.
 */
class LiveEngineRetuneTest {

    private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");
    private static final ResourceAmounts NODE = new ResourceAmounts(8000, 96000, 393216);
    /** An MLP on iris: the engine never reads it, but a re-tune is of a real training job (the contract says so). */
    private static final TrainingSpec IRIS = new TrainingSpec(new ModelGraph(List.of(
            new ModelGraph.Layer("in", "Input", Map.of("shape", List.of(4))),
            new ModelGraph.Layer("out", "Output", Map.of("units", 3))), List.of(new ModelGraph.Edge("in", "out"))),
            "iris", "sgd", 0.01, 4, 20, 7L, null);

    private static LiveEngine engine() {
        return new LiveEngine(new KubeDefaultPolicy(), "builtin-1", 0, JobClock.WALL, false);
    }

    private static NodeMetrics node(String name) {
        return new NodeMetrics(Events.newId(), 1, T0, name, NODE, ResourceAmounts.ZERO, null, null, null, 0, true,
                false, "test");
    }

    private static ResourceAmounts gpus(int n) {
        return new ResourceAmounts(n * 1000L, 2000, 4096);
    }

    /** Job {@code id}'s tuning {@code revision} with {@code perTaskGpus} GPUs on each of {@code tasks} tasks. */
    private static JobTuned tuned(String id, int revision, int tasks, int perTaskGpus) {
        return new JobTuned(Events.derivedId("r" + revision, id), 1, T0.plusSeconds(revision), id, "u", id, "cnn", T0,
                tasks, gpus(perTaskGpus), null, null, null, null, List.of(), "test", true, IRIS, revision);
    }

    private static JobStarted started(SchedulingDecision d) {
        return new JobStarted(Events.newId(), 1, d.occurredAt(), d.jobId(), d.user(), d.nodes(), d.perTask(),
                d.submittedAt(), d.policyVersion(), d.attempt());
    }

    private static JobPreempted preempted(SchedulingDecision d, double ranS) {
        return new JobPreempted(Events.newId(), 1, d.occurredAt().plusSeconds((long) ranS), d.jobId(), d.user(),
                d.nodes(), d.perTask(), "re-sized", d.attempt(), ranS);
    }

    /** Two 8-GPU nodes; job "a" runs on 1 task x 4 GPUs, confirmed started. */
    private static SchedulingDecision aRunsOnFourGpus(LiveEngine s) {
        s.updateNode(node("n1"));
        s.updateNode(node("n2"));
        s.enqueue(tuned("a", 0, 1, 4));
        SchedulingDecision first = s.schedule(T0).decisions().get(0);
        s.onLifecycle(started(first));
        return first;
    }

    @Test
    void aGrowStopsTheStintAndPlacesTheNextAttemptWithTheNewRequestCarryingItsOwnStop() {
        LiveEngine s = engine();
        SchedulingDecision first = aRunsOnFourGpus(s);
        assertEquals(4000, first.perTask().gpuMilli());

        assertTrue(s.retune(tuned("a", 1, 1, 8)), "a new request is a re-size: a round may place it");
        assertEquals(0, s.runningCount());
        assertEquals(1, s.stoppingCount(), "stopping until the dispatcher confirms the checkpoint-stop");
        assertEquals(1, s.pendingCount(), "the next attempt is queued at once, with the new request");

        SchedulingDecision grown = s.schedule(T0.plusSeconds(60)).decisions().get(0);
        assertEquals("a", grown.jobId());
        assertEquals(2, grown.attempt());
        assertEquals(8000, grown.perTask().gpuMilli());
        assertEquals(List.of(new Preemption("a", 1)), grown.preempts(), "its own stop rides in its decision");

        assertTrue(s.onLifecycle(preempted(first, 60)));
        assertEquals(0, s.stoppingCount());
        assertEquals(0, s.pendingCount(), "the confirmation does not queue it a second time");
        assertEquals(1, s.runningCount());
        assertFalse(s.retune(tuned("a", 1, 1, 8)), "a redelivered update changes nothing");
        assertFalse(s.retune(tuned("a", 0, 1, 4)), "revision 0 is the job, not an update");
    }

    @Test
    void aShrinkFreesRoomThatAWaitingJobThenGets() {
        LiveEngine s = engine();
        s.updateNode(node("n1"));
        s.enqueue(tuned("a", 0, 1, 8));
        SchedulingDecision first = s.schedule(T0).decisions().get(0);
        s.onLifecycle(started(first));
        s.enqueue(tuned("b", 0, 1, 4));
        assertTrue(s.schedule(T0.plusSeconds(1)).isEmpty(), "b waits: a holds the whole node");

        assertTrue(s.retune(tuned("a", 1, 1, 4)));
        List<SchedulingDecision> round = s.schedule(T0.plusSeconds(30)).decisions();
        assertEquals(2, round.size(), "a's shrink leaves room for b in the same round");
        SchedulingDecision a2 = round.stream().filter(d -> d.jobId().equals("a")).findFirst().orElseThrow();
        SchedulingDecision b = round.stream().filter(d -> d.jobId().equals("b")).findFirst().orElseThrow();
        assertEquals(4000, a2.perTask().gpuMilli());
        assertEquals(2, a2.attempt());
        assertTrue(a2.preempts().contains(new Preemption("a", 1)));
        assertTrue(b.preempts().contains(new Preemption("a", 1)), "b uses a's old room: it carries the stop too");
    }

    @Test
    void aRequestNoNodeCanHoldIsNotTakenAndTheStintRunsOn() {
        LiveEngine s = engine();
        aRunsOnFourGpus(s);
        assertFalse(s.retune(tuned("a", 1, 1, 16)), "16 GPUs a task fit no 8-GPU node: nothing to re-size");
        assertEquals(1, s.runningCount());
        assertEquals(0, s.stoppingCount());
        assertTrue(s.onLifecycle(new JobPreempted(Events.newId(), 1, T0.plusSeconds(5), "a", "u", List.of("n1"),
                gpus(4), "node drained", 1, 5.0)), "the cluster stops it: it queues again as it ran, not rejected");
        assertEquals(1, s.pendingCount());
        assertEquals(4000, s.schedule(T0.plusSeconds(5)).decisions().get(0).perTask().gpuMilli());
        assertTrue(s.retune(tuned("a", 2, 2, 4)), "a later revision that fits (two tasks) is applied");
        SchedulingDecision gang = s.schedule(T0.plusSeconds(6)).decisions().get(0);
        assertEquals(2, gang.nodes().size());
        assertEquals(3, gang.attempt());
    }

    @Test
    void aWaitingJobIsRequeuedWithItsNewRequestAndASameSizedUpdateStopsNothing() {
        LiveEngine s = engine();
        SchedulingDecision first = aRunsOnFourGpus(s);
        assertFalse(s.retune(tuned("a", 1, 1, 4)), "same room (a batch-size change): the dispatcher restarts it");
        assertEquals(1, s.runningCount());

        s.onLifecycle(preempted(first, 10)); // the cluster preempted it: it waits for attempt 2
        assertEquals(1, s.pendingCount());
        assertTrue(s.retune(tuned("a", 2, 1, 2)));
        SchedulingDecision next = s.schedule(T0.plusSeconds(20)).decisions().get(0);
        assertEquals(2, next.attempt());
        assertEquals(2000, next.perTask().gpuMilli(), "queued again by its newest revision");
        assertEquals(List.of(), next.preempts());
    }

    @Test
    void aJobThatEndsBeforeItsStopReachesItIsNotStartedAgain() {
        LiveEngine s = engine();
        aRunsOnFourGpus(s);
        assertTrue(s.retune(tuned("a", 1, 1, 8)));
        LifecycleEvent done = new JobCompleted(Events.newId(), 1, T0.plusSeconds(3), "a", "u", List.of("n1"), gpus(4),
                T0, 3);
        assertTrue(s.onLifecycle(done));
        assertEquals(0, s.pendingCount());
        assertEquals(0, s.stoppingCount());
        assertTrue(s.schedule(T0.plusSeconds(4)).isEmpty());
        assertFalse(s.retune(tuned("a", 2, 1, 2)), "an ended job is re-tuned no more");
    }

    @Test
    void aWaitingJobItsOwnerCancelsIsReTunedNoMore() {
        LiveEngine s = engine();
        SchedulingDecision first = aRunsOnFourGpus(s);
        s.onLifecycle(preempted(first, 10));
        assertTrue(s.retune(tuned("a", 1, 1, 2)));
        assertTrue(s.withdraw("a"));
        assertFalse(s.retune(tuned("a", 2, 1, 1)), "cancelled: nothing to re-tune");
        assertEquals(0, s.pendingCount());
    }

    @Test
    void aRestartBetweenTheReTuneAndItsStopReSizesAgain() {
        LiveEngine before = engine();
        SchedulingDecision first = aRunsOnFourGpus(before);
        JobTuned grow = tuned("a", 1, 1, 8);
        RestorePlan plan = RestorePlan.fold(List.of(tuned("a", 0, 1, 4), grow), List.of(first),
                List.of(started(first)), JobClock.WALL);
        LiveEngine after = engine();
        after.restore(plan);
        after.updateNode(node("n1"));
        after.updateNode(node("n2"));
        SchedulingDecision grown = after.schedule(T0.plusSeconds(60)).decisions().get(0);
        assertEquals(2, grown.attempt());
        assertEquals(8000, grown.perTask().gpuMilli());
        assertEquals(List.of(new Preemption("a", 1)), grown.preempts());
        assertFalse(after.retune(grow), "the restored revision is applied already");

        RestorePlan later = RestorePlan.fold(List.of(tuned("a", 0, 1, 4), grow), List.of(first, grown),
                List.of(started(first), preempted(first, 60), started(grown)), JobClock.WALL);
        LiveEngine third = engine();
        third.restore(later);
        third.updateNode(node("n1"));
        third.updateNode(node("n2"));
        assertTrue(third.schedule(T0.plusSeconds(90)).isEmpty(), "re-sized before this restart: nothing to do");
        assertEquals(1, third.runningCount());
    }
}
