package io.gantry.dispatcher.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.config.SimulatedClusterConfig;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher carrying out a decision that preempts, on a simulated cluster of one 8-GPU node at 10⁴x (5000
 * simulated seconds are half a wall second; the clusters' timer threads are daemons and end with the JVM).
 */
class DispatcherPreemptionTest {

    private static final ResourceAmounts ALL_GPUS = new ResourceAmounts(8000, 8000, 16_384);

    private record Shape(int nodes, int gpusPerNode, int vcpusPerNode, int memoryGibPerNode, double speedup,
                         double defaultDurationS) implements SimulatedClusterConfig {
        @Override
        public java.util.Optional<String> nodesFile() {
            return java.util.Optional.empty();
        }
    }

    private static final Shape ONE_NODE = new Shape(1, 8, 96, 384, 10_000, 3600);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<LifecycleEvent> announced = new CopyOnWriteArrayList<>();

    private Dispatcher dispatcher(SimulatedCluster cluster) {
        return new Dispatcher(cluster, (event, cause) -> announced.add(event), new DispatcherMetrics(registry, cluster));
    }

    private static SchedulingDecision decision(String jobId, int attempt, double durationS, Preemption... preempts) {
        return new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "alice", List.of("sim-node-01"),
                ALL_GPUS, durationS, Instant.parse("2026-01-02T03:04:05Z"), "sac", "v9", attempt, List.of(preempts));
    }

    @Test
    void aDecisionThatPreemptsStopsTheVictimThenBindsIntoItsRoom() throws InterruptedException {
        SimulatedCluster cluster = new SimulatedCluster(ONE_NODE);
        Dispatcher dispatcher = dispatcher(cluster);
        dispatcher.dispatch(decision("victim-1", 1, 5000), null);
        dispatcher.dispatch(decision("urgent-1", 1, 100, new Preemption("victim-1", 1)), null);

        assertEquals(List.of("JobStarted victim-1", "JobPreempted victim-1", "JobStarted urgent-1"),
                announced.subList(0, 3).stream().map(e -> e.type() + " " + e.jobId()).toList());
        JobPreempted stopped = (JobPreempted) announced.get(1);
        assertEquals(1, stopped.attempt());
        assertTrue(stopped.reason().contains("urgent-1"), stopped.reason());
        assertEquals(1.0, registry.find("gantry.dispatcher.preemptions").counter().count());
        assertEquals(1.0, registry.find("gantry.dispatcher.jobs.preempted").counter().count());

        // Once the urgent job is done, the victim's next attempt runs, announced as that attempt.
        awaitAnnounced(JobCompleted.class, "urgent-1");
        dispatcher.dispatch(decision("victim-1", 2, 100), null);
        // At this speed-up the attempt may already have completed: look for its start, not at the last event.
        List<Integer> victimStarts = announced.stream()
                .filter(e -> e instanceof JobStarted && e.jobId().equals("victim-1"))
                .map(e -> ((JobStarted) e).attempt()).toList();
        assertEquals(List.of(1, 2), victimStarts, "the victim started as attempt 1, then as attempt 2");
        awaitAnnounced(JobCompleted.class, "victim-1");
    }

    private void awaitAnnounced(Class<? extends LifecycleEvent> type, String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (announced.stream().noneMatch(e -> type.isInstance(e) && e.jobId().equals(jobId))) {
            assertTrue(System.nanoTime() < deadline, "no " + type.getSimpleName() + " of " + jobId + ": " + announced);
            Thread.sleep(10);
        }
    }
}
