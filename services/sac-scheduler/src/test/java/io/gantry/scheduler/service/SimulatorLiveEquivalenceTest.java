package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.gantry.scheduling.engine.VirtualClock;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.EquivalenceWindow;
import io.gantry.scheduling.trace.NodeShape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The figures in bench/README.md come from the simulator; users run the live scheduler. One 300-job Philly window
 * goes through both, in-process on a virtual clock, with the same inputs in the same order: the simulator replays
 * it, and the live {@link LiveEngine} is fed the same jobs as {@code JobTuned} events, the nodes as
 * {@code NodeMetrics}, and a stand-in cluster that runs each decision for the job's remaining time and confirms each
 * stop at once with a {@code JobPreempted}. Both must make the same sequence of (time, job, nodes) starts and
 * (time, job) stops, round by round.
 */
class SimulatorLiveEquivalenceTest {

    /** Four 8-GPU nodes: small enough that a queue builds and the preemptive policies stop jobs. */
    private static final List<NodeSpec> NODES = NodeShape.ALIBABA_G2.nodes(4);
    private static final int JOBS = 300;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kube-default", "binpack", "drf", "tiresias", "sac"})
    void theLiveEngineDecidesExactlyAsTheSimulator(String policy) {
        List<JobRequest> jobs = EquivalenceWindow.philly(NODES, JOBS);
        List<String> simulated = new ArrayList<>();
        SimulationResult r = new Simulator(NODES, PolicyRegistry.create(policy), null)
                .observedBy((now, started, stopped) -> record(simulated, now, started.stream()
                        .map(s -> s.job().id() + " on " + s.nodes()).toList(), stopped.stream()
                        .map(s -> s.job().id()).toList()))
                .run(jobs, null);
        assertTrue(r.unfinished().isEmpty());
        assertEquals(jobs.size(), r.outcomes().size());

        List<String> live = new LiveReplay(jobs, policy).run();
        for (int i = 0; i < Math.min(simulated.size(), live.size()); i++) {
            assertEquals(simulated.get(i), live.get(i), policy + ": round " + i);
        }
        assertEquals(simulated.size(), live.size(), policy + ": number of rounds that did something");
        assertTrue(simulated.size() >= JOBS / 10, policy + ": the window must make many rounds, made " + simulated.size());
        if (policy.equals("tiresias")) {
            assertTrue(simulated.stream().anyMatch(s -> s.contains("stop")), "tiresias must stop jobs in this window");
        }
    }

    private static void record(List<String> out, double now, List<String> started, List<String> stopped) {
        if (!started.isEmpty() || !stopped.isEmpty()) {
            // Stops are a set: the dispatcher carries out a round's stops before any of its starts.
            out.add(String.format("t=%.6f start %s stop %s", now, started, stopped.stream().sorted().toList()));
        }
    }

    /** The live engine on a virtual clock, with a stand-in cluster that runs each start for the job's remaining time. */
    private static final class LiveReplay {
        private record Completion(double time, long seq, String jobId, int attempt) {
        }

        private final List<JobRequest> jobs;
        private final VirtualClock clock;
        private final LiveEngine engine;
        private final Map<String, JobRequest> byId = new HashMap<>();
        private final Map<String, Double> remaining = new HashMap<>();
        private final Map<String, SchedulingDecision> runningStint = new HashMap<>();
        private final Map<String, Double> startedAt = new HashMap<>();
        private final PriorityQueue<Completion> completions = new PriorityQueue<>(
                Comparator.comparingDouble(Completion::time).thenComparingLong(Completion::seq));
        private final List<String> rounds = new ArrayList<>();
        private long seq;
        private int next;

        LiveReplay(List<JobRequest> trace, String policy) {
            this.jobs = new ArrayList<>(trace);
            this.jobs.sort(Comparator.comparingDouble(JobRequest::submitTime));
            this.clock = new VirtualClock(jobs.get(0).submitTime());
            this.engine = new LiveEngine(PolicyRegistry.create(policy), "v1", 0, clock, true);
            for (NodeSpec n : NODES) {
                engine.updateNode(new NodeMetrics(Events.newId(), 1, clock.instant(clock.now()), n.name(),
                        amounts(n.capacity()), ResourceAmounts.ZERO, null, null, null, 0, true, false, "test"));
            }
            jobs.forEach(j -> {
                byId.put(j.id(), j);
                remaining.put(j.id(), j.trueDurationS());
            });
        }

        List<String> run() {
            while (true) {
                completions.removeIf(this::stale);
                // The next event: an arrival, a completion or a wake-up the policy asked for, whichever is first.
                double t = java.util.stream.DoubleStream.of(
                                next < jobs.size() ? jobs.get(next).submitTime() : Double.NaN,
                                completions.isEmpty() ? Double.NaN : completions.peek().time(),
                                engine.wakeAtSeconds())
                        .filter(x -> !Double.isNaN(x)).min().orElse(Double.NaN);
                if (Double.isNaN(t)) {
                    break;
                }
                clock.advanceTo(t);
                completeDue();
                while (next < jobs.size() && jobs.get(next).submitTime() <= t) {
                    engine.enqueue(tuned(jobs.get(next++)));
                }
                SchedulingOutcome outcome = engine.schedule();
                assertTrue(outcome.rejections().isEmpty(), "the window holds only jobs that fit");
                carryOut(outcome);
            }
            assertEquals(0, engine.pendingCount() + engine.runningCount() + engine.stoppingCount(), "drained");
            return rounds;
        }

        private void completeDue() {
            while (!completions.isEmpty() && completions.peek().time() <= clock.now()) {
                Completion c = completions.poll();
                if (stale(c)) {
                    continue;
                }
                SchedulingDecision d = runningStint.remove(c.jobId());
                engine.onLifecycle(new JobCompleted(Events.newId(), 1, clock.instant(clock.now()), d.jobId(), d.user(),
                        d.nodes(), d.perTask(), d.submittedAt(), c.time() - startedAt.get(d.jobId())));
            }
        }

        /** Stops first (confirmed at once, with the exact run time), then starts (confirmed at once), as the dispatcher would. */
        private void carryOut(SchedulingOutcome outcome) {
            double now = clock.now();
            List<SchedulingDecision> decisions = outcome.decisions();
            List<String> stopped = new ArrayList<>();
            for (SchedulingDecision d : decisions) {
                assertTrue(d.preempts().containsAll(outcome.stops()), "every decision of a round carries its stops");
            }
            // The stops in the policy's order, as the simulator queues its victims again.
            for (Preemption p : outcome.stops()) {
                SchedulingDecision victim = runningStint.remove(p.jobId());
                assertEquals(p.attempt(), victim.attempt());
                double ran = now - startedAt.get(p.jobId());
                remaining.put(p.jobId(), Math.max(0, remaining.get(p.jobId()) - ran));
                stopped.add(p.jobId());
                engine.onLifecycle(new JobPreempted(Events.newId(), 1, clock.instant(now), victim.jobId(),
                        victim.user(), victim.nodes(), victim.perTask(), "stand-in stop", victim.attempt(), ran));
            }
            List<String> started = new ArrayList<>();
            for (SchedulingDecision d : decisions) {
                runningStint.put(d.jobId(), d);
                startedAt.put(d.jobId(), now);
                completions.add(new Completion(now + remaining.get(d.jobId()), seq++, d.jobId(), d.attempt()));
                started.add(d.jobId() + " on " + d.nodes());
                // At once, as the simulator starts a job: only then may a policy stop it (LiveEngine#startConfirmed).
                engine.onLifecycle(new JobStarted(Events.newId(), 1, clock.instant(now), d.jobId(), d.user(), d.nodes(),
                        d.perTask(), d.submittedAt(), d.policyVersion(), d.attempt()));
            }
            assertEquals(0, engine.stoppingCount(), "every stop was carried by a decision of its round");
            record(rounds, now, started, stopped);
        }

        private boolean stale(Completion c) {
            SchedulingDecision d = runningStint.get(c.jobId());
            return d == null || d.attempt() != c.attempt();
        }

        private JobTuned tuned(JobRequest j) {
            Instant submitted = clock.instant(j.submitTime());
            return new JobTuned(Events.newId(), 1, submitted, j.id(), j.user(), j.id(), null, submitted, j.tasks(),
                    amounts(j.perTask()), null, null, j.trueDurationS(), null, List.of(), "equivalence", true);
        }

        private static ResourceAmounts amounts(Resources r) {
            return new ResourceAmounts(r.gpuMilli(), r.cpuMilli(), r.memoryMib());
        }
    }
}
