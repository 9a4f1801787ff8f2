package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The live scheduler carrying out a preemptive policy's stops: who carries them, resuming, restoring, clocks. */
class LiveEnginePreemptionTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");
    private static final ResourceAmounts NODE = new ResourceAmounts(8000, 96000, 393216);

    /**
     * Places pending jobs into free room; a job named "urgent…" that does not fit stops the first running job on a
     * node where that makes room (a stand-in for sac's or tiresias' reasons, so the test is about the state).
     */
    private static final class UrgentFirstPolicy implements SchedulingPolicy {
        private final Consumer<SchedulingContext> seen;

        UrgentFirstPolicy(Consumer<SchedulingContext> seen) {
            this.seen = seen;
        }

        @Override
        public String name() {
            return "urgent-first";
        }

        /** Into free room only; every job here takes a whole node (the policy must not change ctx.cluster()). */
        private List<Placement> intoFreeRoom(SchedulingContext ctx) {
            seen.accept(ctx);
            List<Placement> out = new ArrayList<>();
            java.util.Set<String> usedThisRound = new java.util.HashSet<>();
            for (JobRequest j : ctx.pending()) {
                ctx.cluster().nodes().stream().filter(n -> n.fits(j.perTask()) && !usedThisRound.contains(n.name()))
                        .findFirst().ifPresent(n -> {
                            out.add(new Placement(j.id(), List.of(n.name())));
                            usedThisRound.add(n.name());
                        });
            }
            return out;
        }

        /** As {@link #intoFreeRoom}, then an "urgent…" job left waiting takes the first stoppable job's node. */
        @Override
        public Decision decide(SchedulingContext ctx) {
            List<Placement> out = new ArrayList<>(intoFreeRoom(ctx));
            List<String> stopped = new ArrayList<>();
            for (JobRequest j : ctx.pending()) {
                boolean placed = out.stream().anyMatch(p -> p.jobId().equals(j.id()));
                List<RunningJob> mayStop = ctx.running().stream().filter(RunningJob::preemptible).toList();
                if (!placed && j.id().startsWith("urgent") && !mayStop.isEmpty()) {
                    RunningJob victim = mayStop.get(0);
                    stopped.add(victim.job().id());
                    out.add(new Placement(j.id(), victim.nodes()));
                }
            }
            return new Decision(out, stopped, Double.NaN);
        }
    }

    private final List<SchedulingContext> contexts = new ArrayList<>();

    private LiveEngine state(boolean preemption) {
        return new LiveEngine(new UrgentFirstPolicy(contexts::add), "v1", 0, JobClock.WALL, preemption);
    }

    private static NodeMetrics node(String name) {
        return new NodeMetrics(Events.newId(), 1, T0, name, NODE, ResourceAmounts.ZERO, null, null, null, 0, true,
                false, "test");
    }

    private static JobTuned job(String id, double durationS) {
        return new JobTuned(Events.newId(), 1, T0, id, "u", id, null, T0, 1, new ResourceAmounts(8000, 1000, 1024),
                null, null, durationS, null, List.of(), "test");
    }

    private static JobPreempted preempted(String id, int attempt, Double ranS) {
        return new JobPreempted(Events.newId(), 1, T0.plusSeconds(100), id, "u", List.of("n1"),
                new ResourceAmounts(8000, 1000, 1024), "test", attempt, ranS);
    }

    /** The dispatcher's confirmation that {@code d}'s stint started. */
    private static JobStarted started(SchedulingDecision d) {
        return new JobStarted(Events.newId(), 1, d.occurredAt(), d.jobId(), d.user(), d.nodes(), d.perTask(),
                d.submittedAt(), d.policyVersion(), d.attempt());
    }

    private static JobCompleted completed(String id) {
        return new JobCompleted(Events.newId(), 1, T0, id, "u", List.of("n1"), new ResourceAmounts(8000, 1000, 1024),
                T0, 10);
    }

    /** One 8-GPU node; "long" (1,000 s) runs on it and "urgent" arrives and stops it. */
    private SchedulingDecision longRunsThenUrgentStopsIt(LiveEngine s) {
        s.updateNode(node("n1"));
        s.enqueue(job("long", 1000));
        SchedulingDecision first = s.schedule(T0).decisions().get(0);
        assertEquals(1, first.attempt());
        assertEquals(List.of(), first.preempts());
        s.onLifecycle(started(first));
        s.enqueue(job("urgent", 50));
        return s.schedule(T0.plusSeconds(100)).decisions().get(0);
    }

    /**
     * A stint only decided may already have ended (at a fast job clock, its completion may be on the way), so no
     * policy may stop it until the dispatcher's JobStarted says it runs.
     */
    @Test
    void aStintIsStoppedOnlyOnceTheClusterSaysItStarted() {
        LiveEngine s = state(true);
        s.updateNode(node("n1"));
        s.enqueue(job("long", 1000));
        SchedulingDecision first = s.schedule(T0).decisions().get(0);
        s.enqueue(job("urgent", 50));
        assertTrue(s.schedule(T0.plusSeconds(100)).isEmpty(), "long's start is not confirmed: urgent waits");
        assertFalse(contexts.get(contexts.size() - 1).running().get(0).preemptible());
        assertTrue(s.onLifecycle(started(first)), "a job waits, so the confirmation asks for a round");
        assertEquals(List.of(new Preemption("long", 1)), s.schedule(T0.plusSeconds(101)).decisions().get(0).preempts());
        assertFalse(s.onLifecycle(started(first)), "a redelivered start changes nothing");
    }

    @Test
    void theStopTravelsInTheDecisionThatUsesTheRoomAndTheJobResumesWithTheRestOfItsRun() {
        LiveEngine s = state(true);
        SchedulingDecision urgent = longRunsThenUrgentStopsIt(s);
        assertEquals("urgent", urgent.jobId());
        assertEquals(List.of(new Preemption("long", 1)), urgent.preempts());
        assertEquals(1, s.runningCount());
        assertEquals(1, s.stoppingCount());
        assertEquals(0, s.pendingCount(), "the stopped job waits for its JobPreempted before it is queued again");
        RunningJob seen = contexts.get(contexts.size() - 1).running().get(0);
        assertEquals(100 * 8, seen.attainedGpuSecondsAt(contexts.get(contexts.size() - 1).now()), 1e-6,
                "the policy saw 100 s of service on 8 GPUs");

        assertTrue(s.onLifecycle(preempted("long", 1, 100.0)));
        assertEquals(0, s.stoppingCount());
        assertEquals(1, s.pendingCount());
        assertTrue(s.schedule(T0.plusSeconds(101)).isEmpty(), "urgent holds the node");
        assertTrue(s.onLifecycle(completed("urgent")));
        SchedulingDecision resumed = s.schedule(T0.plusSeconds(150)).decisions().get(0);
        assertEquals("long", resumed.jobId());
        assertEquals(2, resumed.attempt());
        assertEquals(900, resumed.durationS(), 1e-9, "the rest of its run");
        assertEquals(800, contexts.get(contexts.size() - 1).pendingAttainedGpuS().get("long"), 1e-9);

        assertFalse(s.onLifecycle(preempted("long", 1, 100.0)), "a late stop of attempt 1 never stops attempt 2");
        assertEquals(1, s.runningCount());
    }

    /** A policy that returns the decisions it is given, one per round, whatever it is shown. */
    private static SchedulingPolicy scripted(java.util.Deque<Decision> rounds) {
        return new SchedulingPolicy() {
            @Override
            public String name() {
                return "scripted";
            }

            @Override
            public Decision decide(SchedulingContext ctx) {
                return rounds.isEmpty() ? Decision.placeOnly(List.of()) : rounds.poll();
            }
        };
    }

    private static JobTuned halfNode(String id) {
        return new JobTuned(Events.newId(), 1, T0, id, "u", id, null, T0, 1, new ResourceAmounts(4000, 1000, 1024),
                null, null, 10.0, null, List.of(), "test");
    }

    /**
     * The dispatcher reads decisions of different jobs in any order, so every decision placed into a stopped job's
     * room carries the stop until the stop is confirmed, in the same round and in later ones; a stop whose room
     * nothing uses yet is still made (it travels with the first decision placed there).
     */
    @Test
    void everyDecisionUsingAStoppedJobsRoomCarriesTheStopUntilItIsConfirmed() {
        java.util.Deque<Decision> rounds = new java.util.ArrayDeque<>(List.of(
                Decision.placeOnly(List.of(new Placement("big", List.of("n1")), new Placement("other", List.of("n2")))),
                new Decision(List.of(new Placement("a", List.of("n1")), new Placement("b", List.of("n1"))),
                        List.of("big", "other"), Double.NaN),
                Decision.placeOnly(List.of(new Placement("c", List.of("n1")))),
                Decision.placeOnly(List.of(new Placement("d", List.of("n1"))))));
        LiveEngine s = new LiveEngine(scripted(rounds), "v1", 0, JobClock.WALL, true);
        s.updateNode(node("n1"));
        s.updateNode(node("n2"));
        s.enqueue(job("big", 1000));
        s.enqueue(job("other", 1000));
        List<SchedulingDecision> round1 = s.schedule(T0).decisions();
        assertEquals(2, round1.size());
        round1.forEach(d -> s.onLifecycle(started(d)));
        s.enqueue(halfNode("a"));
        s.enqueue(halfNode("b"));
        List<SchedulingDecision> round2 = s.schedule(T0.plusSeconds(10)).decisions();
        java.util.Set<Preemption> both = java.util.Set.of(new Preemption("big", 1), new Preemption("other", 1));
        assertEquals(both, java.util.Set.copyOf(round2.get(0).preempts()),
                "the round's stops ride on its decisions, 'other' too though nothing uses its room");
        assertEquals(both, java.util.Set.copyOf(round2.get(1).preempts()), "b uses big's room too");
        assertEquals(2, s.runningCount(), "a and b");
        assertEquals(2, s.stoppingCount(), "a victim is stopped even when nothing this round uses its room, as in the"
                + " simulator: 'other' too");

        s.enqueue(halfNode("c"));
        s.onLifecycle(completed("a"));
        assertEquals(List.of(new Preemption("big", 1)), s.schedule(T0.plusSeconds(20)).decisions().get(0).preempts(),
                "a later round into the same room, before the stop is confirmed");
        s.onLifecycle(preempted("big", 1, 10.0));
        s.enqueue(halfNode("d"));
        s.onLifecycle(completed("b"));
        assertEquals(List.of(), s.schedule(T0.plusSeconds(30)).decisions().get(0).preempts(), "confirmed: carried no more");
    }

    @Test
    void aJobThatCompletesWhileBeingStoppedLeavesForGood() {
        LiveEngine s = state(true);
        longRunsThenUrgentStopsIt(s);
        assertTrue(s.onLifecycle(completed("long")));
        assertEquals(0, s.stoppingCount());
        assertEquals(0, s.pendingCount());
        assertFalse(s.onLifecycle(preempted("long", 1, 100.0)));
        assertEquals(0, s.pendingCount(), "nothing to resume");
    }

    @Test
    void aJobSubmittedAsNotPreemptibleIsNeverOfferedAsAVictim() {
        LiveEngine s = state(true);
        s.updateNode(node("n1"));
        JobTuned pinned = job("long", 1000);
        s.enqueue(new JobTuned(pinned.eventId(), 1, T0, "long", "u", "long", null, T0, 1, pinned.perTask(), null, null,
                1000.0, null, List.of(), "test", false));
        s.schedule(T0);
        s.enqueue(job("urgent", 50));
        assertTrue(s.schedule(T0.plusSeconds(100)).isEmpty(), "urgent waits: the only running job may not be stopped");
        List<RunningJob> seen = contexts.get(contexts.size() - 1).running();
        assertEquals(List.of("long"), seen.stream().map(r -> r.job().id()).toList(), "the policy sees it as taken room");
        assertFalse(seen.get(0).preemptible());
        assertEquals(0, s.stoppingCount());
    }

    @Test
    void withPreemptionOffThePolicyOnlyPlacesIntoFreeRoom() {
        LiveEngine s = state(false);
        s.updateNode(node("n1"));
        s.enqueue(job("long", 1000));
        s.schedule(T0);
        s.enqueue(job("urgent", 50));
        assertTrue(s.schedule(T0.plusSeconds(100)).isEmpty());
        assertEquals(1, s.runningCount());
        assertEquals(0, s.stoppingCount());
        RunningJob seen = contexts.get(contexts.size() - 1).running().get(0);
        assertEquals("long", seen.job().id(), "every running job is shown, as in the simulator (DRF's shares count it)");
        assertFalse(seen.preemptible(), "with preemption off no running job may be stopped");
    }

    @Test
    void theJobsClockScalesWaitsAndServiceToTheJobsSeconds() {
        LiveEngine s = new LiveEngine(new UrgentFirstPolicy(contexts::add), "v1", 0, new JobClock(1000), true);
        longRunsThenUrgentStopsIt(s);
        SchedulingContext ctx = contexts.get(contexts.size() - 1);
        assertEquals(100 * 1000, ctx.now() - ctx.pending().get(0).submitTime(), 1e-3,
                "100 wall seconds are 100,000 job seconds at a speed-up of 1,000");
        assertEquals(100_000 * 8, ctx.running().get(0).attainedGpuSecondsAt(ctx.now()), 1e-2);
    }

    /**
     * After a restart the decisions topic is read in partition order, not in time order: every order of the same
     * decisions (each job's own kept, as its partition keeps them) must give the same state.
     */
    @Test
    void restoringTheDecisionsInAnyOrderGivesTheSameState() {
        LiveEngine live = state(true);
        live.updateNode(node("n1"));
        JobTuned longJob = job("long", 1000);
        JobTuned urgentJob = job("urgent", 50);
        live.enqueue(longJob);
        SchedulingDecision first = live.schedule(T0).decisions().get(0);
        live.onLifecycle(started(first));
        live.enqueue(urgentJob);
        SchedulingDecision urgent = live.schedule(T0.plusSeconds(100)).decisions().get(0);
        JobPreempted stop = preempted("long", 1, 100.0);
        JobCompleted urgentDone = completed("urgent");
        live.onLifecycle(stop);
        live.onLifecycle(urgentDone);
        SchedulingDecision resumed = live.schedule(T0.plusSeconds(150)).decisions().get(0);

        List<List<SchedulingDecision>> orders = List.of(List.of(first, urgent, resumed), List.of(urgent, first, resumed),
                List.of(first, resumed, urgent));
        for (List<SchedulingDecision> order : orders) {
            LiveEngine r = state(true);
            r.restore(RestorePlan.fold(List.of(longJob, urgentJob), order, List.of(stop, urgentDone), JobClock.WALL));
            r.updateNode(node("n1"));
            String in = order.stream().map(d -> d.jobId() + "#" + d.attempt()).toList().toString();
            assertEquals(1, r.runningCount(), in);
            assertEquals(0, r.stoppingCount(), in);
            assertEquals(0, r.pendingCount(), in);
            assertFalse(r.onLifecycle(stop), in + ": the redelivered stop of attempt 1 changes nothing");
            r.enqueue(job("next", 10));
            assertTrue(r.schedule(T0.plusSeconds(200)).isEmpty(), in + ": long's attempt 2 holds the node");
            assertTrue(r.onLifecycle(completed("long")), in);
            assertEquals("next", r.schedule(T0.plusSeconds(300)).decisions().get(0).jobId(), in);
        }
        // A restart between the stop's decision and its JobPreempted: long is stopping, whichever came first.
        for (List<SchedulingDecision> order : List.of(List.of(first, urgent), List.of(urgent, first))) {
            LiveEngine r = state(true);
            r.restore(RestorePlan.fold(List.of(longJob, urgentJob), order, List.of(started(first)), JobClock.WALL));
            assertEquals(1, r.runningCount());
            assertEquals(1, r.stoppingCount());
            assertTrue(r.onLifecycle(stop));
            assertEquals(1, r.pendingCount());
            r.updateNode(node("n1"));
            assertTrue(r.schedule(T0.plusSeconds(101)).isEmpty(), "urgent holds n1; long waits for it");
            assertEquals(1, r.pendingCount());
        }
    }
}
