package io.gantry.dispatcher.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.config.SimulatedClusterConfig;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulated cluster on its own: one node of 8 GPUs at 10⁴x, so 5000 simulated seconds take half a second. */
class SimulatedClusterTest {

    private static final double SPEEDUP = 10_000;
    private static final ResourceAmounts ALL_GPUS = new ResourceAmounts(8000, 8000, 16_384);
    private static final Instant SUBMITTED = Instant.parse("2026-01-02T03:04:05Z");

    record Shape(int nodes, int gpusPerNode, int vcpusPerNode, int memoryGibPerNode, double speedup,
                 double defaultDurationS) implements SimulatedClusterConfig {
        @Override
        public java.util.Optional<String> nodesFile() {
            return java.util.Optional.empty();
        }
    }

    private final SimulatedCluster cluster = new SimulatedCluster(new Shape(1, 8, 96, 384, SPEEDUP, 3600));
    private final List<LifecycleEvent> reported = new CopyOnWriteArrayList<>();
    private final JobEvents events = (event, failureCause) -> reported.add(event);

    @AfterEach
    void stopTimers() {
        cluster.stop();
    }

    static SchedulingDecision decision(String jobId, int attempt, double durationS, Preemption... preempts) {
        return new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "alice", List.of("sim-node-01"),
                ALL_GPUS, durationS, SUBMITTED, "sac", "v9", attempt, List.of(preempts));
    }

    private void bindAndRun(SchedulingDecision d) {
        assertInstanceOf(BindOutcome.Bound.class, cluster.bind(d));
        cluster.run(d, events);
    }

    @Test
    void aPreemptedStintReportsHowLongItRanFreesItsNodeAndNeverCompletes() throws InterruptedException {
        bindAndRun(decision("long-1", 1, 5000));
        Thread.sleep(20);
        cluster.preempt(new Preemption("long-1", 1), decision("urgent-1", 1, 60), events);

        JobPreempted preempted = assertInstanceOf(JobPreempted.class, only("long-1"));
        assertEquals(1, preempted.attempt());
        assertTrue(preempted.ranS() > 0 && preempted.ranS() < 5000, "ran " + preempted.ranS() + " s");
        assertEquals(List.of("sim-node-01"), preempted.nodes());
        assertEquals(ALL_GPUS, preempted.perTask());
        assertEquals("alice", preempted.user());
        assertTrue(preempted.reason().contains("urgent-1") && preempted.reason().contains("sac v9"), preempted.reason());
        assertEquals(0, cluster.runningJobs());
        assertEquals(0, cluster.snapshot().nodes().get(0).allocated().gpuMilli(), "its GPUs are free");

        Thread.sleep(800); // past the 0.5 s its completion was due
        assertEquals(1, reported.size(), "no completion for a preempted stint: " + reported);
    }

    @Test
    void aCompletionDueWhileTheStintIsPreemptedIsNotReported() throws InterruptedException {
        SchedulingDecision d = decision("due-1", 1, 1); // 0.1 ms of wall time
        assertInstanceOf(BindOutcome.Bound.class, cluster.bind(d));
        // Holding the cluster's lock keeps its due timer waiting in the middle of completing the stint.
        synchronized (cluster) {
            cluster.run(d, events);
            Thread.sleep(50);
            cluster.preempt(new Preemption("due-1", 1), decision("urgent-6", 1, 60), events);
        }
        Thread.sleep(50);
        JobPreempted preempted = assertInstanceOf(JobPreempted.class, only("due-1"));
        assertEquals(1.0, preempted.ranS(), "it ran its whole duration");
        assertEquals(0, cluster.runningJobs());
    }

    @Test
    void theJobDecidedAgainAsItsNextAttemptRunsTheRestAndEarlierAttemptsAreDuplicates() throws InterruptedException {
        bindAndRun(decision("long-2", 1, 5000));
        Thread.sleep(20);
        cluster.preempt(new Preemption("long-2", 1), decision("urgent-2", 1, 60), events);
        double rest = 5000 - assertInstanceOf(JobPreempted.class, only("long-2")).ranS();

        bindAndRun(decision("long-2", 2, rest));
        JobCompleted completed = assertInstanceOf(JobCompleted.class, await("long-2", 2).get(1));
        assertEquals(rest, completed.runtimeS(), 1e-9);
        assertEquals(0, cluster.runningJobs());

        assertInstanceOf(BindOutcome.AlreadyDecided.class, cluster.bind(decision("long-2", 1, 5000)));
        assertInstanceOf(BindOutcome.AlreadyDecided.class, cluster.bind(decision("long-2", 2, rest)));
        // A stop for a stint that has completed changes nothing.
        cluster.preempt(new Preemption("long-2", 2), decision("urgent-3", 1, 60), events);
        assertEquals(2, reported.size(), reported.toString());
    }

    @Test
    void aVictimWhoseDecisionHasNotComeYetIsReportedPreemptedAndItsDecisionIgnored() {
        cluster.preempt(new Preemption("late-1", 1), decision("urgent-4", 1, 60), events);
        JobPreempted preempted = assertInstanceOf(JobPreempted.class, only("late-1"));
        assertEquals(1, preempted.attempt());
        assertEquals(0.0, preempted.ranS());
        assertEquals(List.of(), preempted.nodes());

        assertInstanceOf(BindOutcome.AlreadyDecided.class, cluster.bind(decision("late-1", 1, 60)));
        assertEquals(0, cluster.runningJobs());
        bindAndRun(decision("late-1", 2, 5000));
        // The late stop of attempt 1 must not hit attempt 2.
        cluster.preempt(new Preemption("late-1", 1), decision("urgent-5", 1, 60), events);
        assertEquals(1, reported.size(), reported.toString());
        assertEquals(1, cluster.runningJobs());
    }

    @Test
    void resumingMarksEachJobsHighestAttemptDecidedAndEndedJobsEveryAttempt() throws InterruptedException {
        LifecycleHistoryReader.History history = new LifecycleHistoryReader.History.Builder()
                .add(started("twice-1", 1)).add(preempted("twice-1", 1))
                .add(started("twice-1", 2)).add(preempted("twice-1", 2))
                .add(started("done-1", 1))
                .add(new JobCompleted(Events.newId(), 1, Instant.now(), "done-1", "bob", List.of("sim-node-01"),
                        ALL_GPUS, SUBMITTED, 30.0))
                .add(started("running-1", 1)).add(preempted("running-1", 1)).add(started("running-1", 2))
                .addDecision(decision("running-1", 2, 2000))
                .build();
        assertEquals(Set.of("running-1"), history.stillRunning().keySet());
        assertEquals(2, history.stillRunning().get("running-1").attempt());

        cluster.resume(history, events);

        assertEquals(List.of(), reported, "the stint still running runs on: nothing to announce yet");
        assertEquals(1, cluster.runningJobs());
        assertInstanceOf(BindOutcome.AlreadyDecided.class, cluster.bind(decision("twice-1", 2, 60)));
        assertInstanceOf(BindOutcome.AlreadyDecided.class, cluster.bind(decision("done-1", 5, 60)));
        assertInstanceOf(BindOutcome.AlreadyDecided.class, cluster.bind(decision("running-1", 2, 60)));
        assertInstanceOf(BindOutcome.Refused.class, cluster.bind(decision("twice-1", 3, 60)),
                "running-1 holds the node's 8 GPUs again");
        JobCompleted done = assertInstanceOf(JobCompleted.class, await("running-1", 1).get(0));
        assertEquals(2000.0, done.runtimeS(), "its whole decided run, the part before the restart included");
        assertEquals(0, cluster.runningJobs());
    }

    @Test
    void aStintWhoseRunEndedWhileNoDispatcherRanCompletesAtTheMomentItEnded() {
        Instant longAgo = Instant.now().minusSeconds(60);
        JobStarted start = new JobStarted(Events.newId(), 1, longAgo, "old-1", "bob", List.of("sim-node-01"), ALL_GPUS,
                SUBMITTED, "v1", 1);
        cluster.resume(new LifecycleHistoryReader.History.Builder().add(start).build(), events);
        JobCompleted done = assertInstanceOf(JobCompleted.class, only("old-1"));
        assertEquals(3600.0, done.runtimeS(), "without its decision on the topic: the default duration");
        assertEquals(longAgo.plusNanos(360_000_000), done.occurredAt(), "3,600 s at 10,000x: 0.36 s after its start");
        assertEquals(0, cluster.runningJobs());
    }

    /**
     * A crash between a stop's JobPreempted (lost) and the start that took its room (written): both stints look
     * running. The later start wins; the older one is announced preempted with what it ran.
     */
    @Test
    void twoStintsThatNoLongerFitTogetherKeepTheLaterStartAndStopTheOlder() {
        Instant now = Instant.now();
        JobStarted victim = new JobStarted(Events.newId(), 1, now.minusMillis(100), "victim-1", "bob",
                List.of("sim-node-01"), ALL_GPUS, SUBMITTED, "v1", 1);
        JobStarted urgent = new JobStarted(Events.newId(), 1, now.minusMillis(50), "urgent-1", "bob",
                List.of("sim-node-01"), ALL_GPUS, SUBMITTED, "v1", 1);
        cluster.resume(new LifecycleHistoryReader.History.Builder().add(victim).add(urgent)
                .addDecision(decision("victim-1", 1, 50_000)).addDecision(decision("urgent-1", 1, 50_000)).build(), events);
        JobPreempted stopped = assertInstanceOf(JobPreempted.class, only("victim-1"));
        assertEquals(1, stopped.attempt());
        assertTrue(stopped.ranS() >= 1000 && stopped.ranS() < 50_000, "about 0.1 s at 10,000x: " + stopped.ranS());
        assertEquals(1, reported.size(), reported.toString());
        assertEquals(1, cluster.runningJobs(), "urgent-1 runs on");
        assertInstanceOf(BindOutcome.Refused.class, cluster.bind(decision("victim-1", 2, 60)),
                "urgent-1 holds the whole node");
    }

    private static JobStarted started(String jobId, int attempt) {
        return new JobStarted(Events.newId(), 1, Instant.now(), jobId, "bob", List.of("sim-node-01"), ALL_GPUS,
                SUBMITTED, "v1", attempt);
    }

    private static JobPreempted preempted(String jobId, int attempt) {
        return new JobPreempted(Events.newId(), 1, Instant.now(), jobId, "bob", List.of("sim-node-01"), ALL_GPUS,
                "preempted to make room", attempt, 10.0);
    }

    private LifecycleEvent only(String jobId) {
        List<LifecycleEvent> of = reported.stream().filter(e -> e.jobId().equals(jobId)).toList();
        assertEquals(1, of.size(), of.toString());
        return of.get(0);
    }

    private List<LifecycleEvent> await(String jobId, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            List<LifecycleEvent> of = reported.stream().filter(e -> e.jobId().equals(jobId)).toList();
            if (of.size() >= count) {
                return of;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("fewer than " + count + " events of " + jobId + ": " + reported);
    }
}
