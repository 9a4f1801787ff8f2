package io.gantry.dispatcher.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.RealRunner;
import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.config.RealJobsConfig;
import io.gantry.events.Events;
import io.gantry.events.JobFailed;
import io.gantry.events.JobSubmitted;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.training.model.RealJobSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real jobs in the simulated cluster with the real job-runner (no broker: these runs end before they report; the
 * cluster's own events are collected): a bad spec fails with the runner's reason and frees the node; a runner that
 * outgrows its memory request is killed, failed with the memory it needed, and submitted once more with that much.
 * Completion through the broker, the memory retry's included, is {@code MemoryRetryPipelineTest}'s and
 * {@code RealJobsPipelineTest}'s (system-tests).
 */
class RealJobsInSimulatedClusterTest {

    record Settings(Optional<String> runnerJar, OptionalInt maxConcurrent, Optional<String> workDir, String datasetsDir,
                    Duration runTimeout, String javaOpts, Duration specWait, Optional<String> kafkaSaslJaasConfig)
            implements RealJobsConfig {
    }

    @TempDir
    Path tmp;

    private final Map<String, TrainingSpec> specs = new ConcurrentHashMap<>();
    private final List<LifecycleEvent> reported = new CopyOnWriteArrayList<>();
    private final List<JobSubmitted> resubmitted = new CopyOnWriteArrayList<>();
    private final JobEvents events = (event, cause) -> reported.add(event);
    private SimulatedCluster cluster;

    @BeforeEach
    void cluster() {
        Path runner = RealRunner.requireJar();
        RealJobProcesses processes = new RealJobProcesses(new Settings(Optional.of(runner.toString()), OptionalInt.of(1),
                Optional.of(tmp.toString()), RealRunner.datasets().toString(), Duration.ofMinutes(5), "-Xmx256m -XX:+UseSerialGC",
                Duration.ofSeconds(1), Optional.empty()), "localhost:1", KafkaClientAuth.PLAINTEXT, tmp);
        TrainingSpecSource source = new TrainingSpecSource() {
            @Override
            public TrainingSpec specFor(SchedulingDecision decision) {
                return specs.get(decision.jobId());
            }

            @Override
            public TrainingSpec knownSpec(String jobId) {
                return specs.get(jobId);
            }
        };
        cluster = new SimulatedCluster(new SimulatedClusterTest.Shape(1, 8, 96, 384, 1000, 3600), source, processes,
                resubmitted::add);
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    private SchedulingDecision decide(String jobId, long memoryMib) {
        SchedulingDecision d = new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "ada",
                List.of("sim-node-01"), new ResourceAmounts(0, 1000, memoryMib), null, Instant.now(), "tiresias", "v1", 1,
                List.of());
        assertInstanceOf(BindOutcome.Bound.class, cluster.bind(d));
        cluster.run(d, events);
        return d;
    }

    private LifecycleEvent awaitEnd(String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            for (LifecycleEvent e : reported) {
                if (e.jobId().equals(jobId) && e.terminal()) {
                    return e;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError(jobId + " did not end within 120 s: " + reported);
    }

    private void awaitResubmission() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (resubmitted.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Test
    void aBadSpecFailsWithTheRunnersReasonNamingTheLayerAndFreesTheNode() throws Exception {
        // An MLP on digits: its first Linear layer gets the [1, 8, 8] image. The contract cannot tell (it knows no
        // dataset shapes); the runner's shape inference can, and its reason becomes the job's.
        TrainingSpec mlp = RealJobSet.job(1, 3).spec();
        specs.put("bad-1", new TrainingSpec(mlp.model(), "digits", "adam", 0.01, 16, 5, 3L, null));
        decide("bad-1", 1024);
        assertEquals(1, cluster.runningJobs());
        JobFailed failed = assertInstanceOf(JobFailed.class, awaitEnd("bad-1"));
        assertTrue(failed.reason().contains("layer 'fc1' (Linear) needs a flat input")
                && failed.reason().contains("[1, 8, 8]"), failed.reason());
        assertTrue(!failed.oomKilled());
        assertEquals(0, cluster.runningJobs(), "its node is free again");
        assertTrue(resubmitted.isEmpty(), "a failure that is not for memory is not retried");
    }

    @Test
    void aRealJobStillRunningWhenTheDispatcherRestartedGetsItsRunnerAgain() throws Exception {
        // On the topic: resume-1 started a minute ago and never ended. It is a real job (its spec is known), so no
        // timer decides it completed while the dispatcher was down: its runner runs again (here it fails at once on
        // its spec, which shows it ran).
        TrainingSpec mlp = RealJobSet.job(1, 3).spec();
        specs.put("resume-1", new TrainingSpec(mlp.model(), "digits", "adam", 0.01, 16, 5, 3L, null));
        io.gantry.events.JobStarted started = new io.gantry.events.JobStarted(Events.newId(), 1,
                Instant.now().minusSeconds(60), "resume-1", "ada", List.of("sim-node-01"),
                new ResourceAmounts(0, 1000, 1024), Instant.now().minusSeconds(61), "v1", 1);
        cluster.resume(new io.gantry.dispatcher.messaging.LifecycleHistoryReader.History(Map.of("resume-1", 1),
                Map.of("resume-1", started), java.util.Set.of(), Map.of()), events);
        assertEquals(1, cluster.runningJobs(), "back on its node");
        JobFailed failed = assertInstanceOf(JobFailed.class, awaitEnd("resume-1"));
        assertTrue(failed.reason().contains("layer 'fc1' (Linear)"), failed.reason());
        assertTrue(Files.exists(tmp.resolve("resume-1/runner-1.log")), "its runner ran again");
        assertEquals(0, cluster.runningJobs());
    }

    @Test
    void aRunnerAboveItsMemoryRequestIsKilledAndRetriedOnceWithWhatItNeeded() throws Exception {
        specs.put("digits-1", RealJobSet.job(0, 3).spec());
        decide("digits-1", 64);
        JobFailed failed = assertInstanceOf(JobFailed.class, awaitEnd("digits-1"));
        assertTrue(failed.oomKilled());
        assertTrue(failed.reason().startsWith("OOMKilled: job-runner's resident memory reached ")
                && failed.reason().contains("above its memory request of 64 MiB"), failed.reason());
        long needed = Long.parseLong(failed.reason().replaceAll(".*needs at least (\\d+) MiB.*", "$1"));
        assertTrue(needed > 64);
        // The failure is reported first and the retry submitted after it, on the runner's watcher thread.
        awaitResubmission();
        assertEquals(1, resubmitted.size());
        JobSubmitted retry = resubmitted.get(0);
        assertEquals("digits-1" + SimulatedCluster.MEMORY_RETRY_SUFFIX, retry.jobId());
        assertTrue(retry.perTask().memoryMib() >= needed, retry.perTask() + " vs " + needed);
        assertEquals(specs.get("digits-1"), retry.training());
        assertTrue(retry.violations().isEmpty(), retry.violations().toString());
        assertEquals(1, cluster.memoryRetries());
        assertEquals(0, cluster.runningJobs());

        // Killed at the crossing, the run had reached only a lower bound of its peak: the retry asks for more than
        // that bound, at least twice the old request and at least the runner's measured ceiling.
        assertTrue(retry.perTask().memoryMib() >= MemoryRetries.MIN_RETRY_MIB, retry.perTask().toString());
        assertTrue(retry.perTask().memoryMib() >= 2 * 64, retry.perTask().toString());
    }
}
