package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobRejected;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.scheduling.policy.TiresiasPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Restore is correct for every state a live run reaches. A live scheduler runs a seeded workload of fractional-GPU
 * jobs, whole-GPU jobs and gangs under a preemptive policy, against a stand-in dispatcher that carries decisions out
 * one step late and whose lifecycle events the scheduler reads one step later still, so stops, starts and
 * completions are in flight at every moment. Every few steps a second scheduler is restored from the topics written
 * so far (with the last events redelivered on top, as the channels do after a restart, and the nodes reporting before
 * or after the restore). From then on it must hold the same nodes and decide exactly as the live one does.
 */
class SchedulerRestoreEquivalenceTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");
    private static final ResourceAmounts NODE = new ResourceAmounts(8000, 96000, 393216);
    private static final List<String> NODES = List.of("n1", "n2", "n3");
    /** Arrivals come in the first 180 steps; twins are restored in the first 400; the run goes on until it drains. */
    private static final int TWIN_STEPS = 400;
    private static final int MAX_STEPS = 5_000;

    /** What the scheduler's three topics hold so far. */
    private final List<JobTuned> tunedTopic = new ArrayList<>();
    private final List<SchedulingDecision> decisionsTopic = new ArrayList<>();
    private final List<LifecycleEvent> lifecycleTopic = new ArrayList<>();

    private static LiveEngine scheduler() {
        // Low thresholds: jobs move down Tiresias' queues within seconds, so the policy stops running jobs often.
        return new LiveEngine(new TiresiasPolicy(new double[] {20, 200}), "v1", 0, JobClock.WALL, true);
    }

    private static NodeMetrics node(String name) {
        return new NodeMetrics(Events.newId(), 1, T0, name, NODE, ResourceAmounts.ZERO, null, null, null, 0, true,
                false, "test");
    }

    /** Fractional GPUs, whole GPUs, gangs of whole nodes, a few jobs that may not be stopped; seeded. */
    private static Map<Integer, List<JobTuned>> workload(long seed) {
        Random rnd = new Random(seed);
        Map<Integer, List<JobTuned>> byStep = new LinkedHashMap<>();
        for (int i = 0; i < 90; i++) {
            int step = rnd.nextInt(180);
            int kind = rnd.nextInt(4);
            int tasks = kind == 3 ? 2 + rnd.nextInt(2) : 1;
            long gpuMilli = switch (kind) {
                case 0 -> 100L * (1 + rnd.nextInt(9));
                case 1 -> 1000L * (1 + rnd.nextInt(4));
                case 2 -> 8000;
                default -> rnd.nextBoolean() ? 4000 : 8000;
            };
            ResourceAmounts perTask = new ResourceAmounts(gpuMilli, 1000L * (1 + rnd.nextInt(24)), 1024L * (1 + rnd.nextInt(64)));
            Instant submitted = T0.plusSeconds(step);
            JobTuned j = new JobTuned(Events.newId(), 1, submitted, "job-" + i, "u" + rnd.nextInt(3), "job-" + i, null,
                    submitted, tasks, perTask, null, null, 5.0 + rnd.nextInt(80), null, List.of(), "test",
                    rnd.nextInt(10) != 0);
            byStep.computeIfAbsent(step, s -> new ArrayList<>()).add(j);
        }
        return byStep;
    }

    /** A dispatcher on a cluster that runs each stint for its duration; it carries out what it got one step earlier. */
    private static final class StandInDispatcher {
        private record Stint(SchedulingDecision decision, double startS) {
            double endS() {
                return startS + decision.durationS();
            }
        }

        private final Map<String, Stint> running = new LinkedHashMap<>();
        private final List<SchedulingDecision> inbox = new ArrayList<>();

        List<LifecycleEvent> step(Instant now) {
            double nowS = JobClock.WALL.seconds(now);
            List<LifecycleEvent> out = new ArrayList<>();
            for (SchedulingDecision d : inbox) {
                for (Preemption p : d.preempts()) {
                    Stint victim = running.get(p.jobId());
                    if (victim != null && victim.decision().attempt() == p.attempt()) {
                        running.remove(p.jobId());
                        SchedulingDecision v = victim.decision();
                        out.add(new JobPreempted(Events.newId(), 1, now, v.jobId(), v.user(), v.nodes(), v.perTask(),
                                "stand-in stop", v.attempt(), nowS - victim.startS()));
                    }
                }
                running.put(d.jobId(), new Stint(d, nowS));
                out.add(new JobStarted(Events.newId(), 1, now, d.jobId(), d.user(), d.nodes(), d.perTask(),
                        d.submittedAt(), d.policyVersion(), d.attempt()));
            }
            inbox.clear();
            List<Stint> due = running.values().stream().filter(s -> s.endS() <= nowS)
                    .sorted(Comparator.comparingDouble(Stint::endS).thenComparing(s -> s.decision().jobId())).toList();
            for (Stint s : due) {
                running.remove(s.decision().jobId());
                SchedulingDecision d = s.decision();
                out.add(new JobCompleted(Events.newId(), 1, now, d.jobId(), d.user(), d.nodes(), d.perTask(),
                        d.submittedAt(), d.durationS()));
            }
            return out;
        }
    }

    /** A restored scheduler and how many rounds it has matched the live one. */
    private record Twin(String name, LiveEngine state) {
    }

    @Test
    void aSchedulerRestoredAtAnyMomentDecidesExactlyAsTheLiveOne() {
        for (long seed = 1; seed <= 3; seed++) {
            tunedTopic.clear();
            decisionsTopic.clear();
            lifecycleTopic.clear();
            int preemptions = run(seed);
            assertTrue(preemptions > 5, "seed " + seed + ": the workload must make the policy stop jobs, made "
                    + preemptions);
        }
    }

    /** Runs one seeded workload with twins restored along the way; returns the preemptions the live run made. */
    private int run(long seed) {
        Map<Integer, List<JobTuned>> arrivals = workload(seed);
        LiveEngine live = scheduler();
        NODES.forEach(n -> live.updateNode(node(n)));
        StandInDispatcher dispatcher = new StandInDispatcher();
        List<Twin> twins = new ArrayList<>();
        List<LifecycleEvent> unread = List.of();
        int preemptions = 0;
        for (int step = 0; step < MAX_STEPS && !(step > 180 && drained(live, dispatcher)); step++) {
            Instant now = T0.plusSeconds(step);
            for (LifecycleEvent e : unread) {
                live.onLifecycle(e);
                twins.forEach(t -> t.state().onLifecycle(e));
            }
            if (step % 4 == 1 && step < TWIN_STEPS) {
                // The live scheduler has read everything on the topics: a restart now must land in the same state.
                twins.add(restoredTwin("seed " + seed + " step " + step, step % 8 == 1));
            }
            for (JobTuned j : arrivals.getOrDefault(step, List.of())) {
                tunedTopic.add(j);
                live.enqueue(j);
                twins.forEach(t -> t.state().enqueue(j));
            }
            List<LifecycleEvent> happened = dispatcher.step(now);
            lifecycleTopic.addAll(happened);
            SchedulingOutcome outcome = live.schedule(now);
            for (Twin t : twins) {
                SchedulingOutcome theirs = t.state().schedule(now);
                assertEquals(summary(outcome), summary(theirs), t.name() + ", at step " + step);
                assertEquals(allocations(live), allocations(t.state()), t.name() + ", nodes at step " + step);
                assertEquals(live.stoppingCount(), t.state().stoppingCount(), t.name() + ", stopping at step " + step);
            }
            decisionsTopic.addAll(outcome.decisions());
            dispatcher.inbox.addAll(outcome.decisions());
            preemptions += outcome.decisions().stream().mapToInt(d -> d.preempts().size()).sum();
            List<LifecycleEvent> next = new ArrayList<>(happened);
            for (JobRejected r : outcome.rejections()) {
                lifecycleTopic.add(r);
                next.add(r);
            }
            unread = next;
        }
        assertTrue(drained(live, dispatcher), "seed " + seed + ": the workload drains within " + MAX_STEPS + " steps");
        return preemptions;
    }

    private static boolean drained(LiveEngine s, StandInDispatcher d) {
        return s.pendingCount() + s.runningCount() + s.stoppingCount() == 0 && d.running.isEmpty() && d.inbox.isEmpty();
    }

    /**
     * A scheduler restored from the topics as they are now, then given the last events again, as the channels
     * redeliver what was read but not committed before a crash.
     */
    private Twin restoredTwin(String name, boolean nodesReportFirst) {
        LiveEngine twin = scheduler();
        if (nodesReportFirst) {
            NODES.forEach(n -> twin.updateNode(node(n)));
        }
        twin.restore(RestorePlan.fold(tunedTopic, decisionsTopic, lifecycleTopic, JobClock.WALL));
        lastOf(tunedTopic, 5).forEach(twin::enqueue);
        lastOf(lifecycleTopic, 8).forEach(twin::onLifecycle);
        if (!nodesReportFirst) {
            NODES.forEach(n -> twin.updateNode(node(n)));
        }
        return new Twin(name + (nodesReportFirst ? " (nodes first)" : " (nodes after)"), twin);
    }

    private static <T> List<T> lastOf(List<T> xs, int n) {
        return xs.subList(Math.max(0, xs.size() - n), xs.size());
    }

    /** What a round decided, without event ids and times. */
    private static List<String> summary(SchedulingOutcome o) {
        List<String> out = new ArrayList<>();
        o.decisions().forEach(d -> out.add(d.jobId() + "#" + d.attempt() + " on " + d.nodes() + " for " + d.durationS()
                + " s, stopping " + d.preempts()));
        o.rejections().forEach(r -> out.add("rejected " + r.jobId()));
        return out;
    }

    private static List<String> allocations(LiveEngine s) {
        return s.nodes().stream().map(n -> n.name() + ": " + n.allocated() + " in " + n.runningTasks() + " tasks").toList();
    }
}
