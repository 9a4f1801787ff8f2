package io.gantry.dispatcher;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.training.model.RealJobSet;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A memory-killed real job, retried, completes, through the real broker: the dispatcher runs the real job-runner for a
 * job whose pod requests too little memory, kills it when its resident set crosses the request, fails it as
 * OOMKilled and submits it again with the memory it needed; the test plays the tuner and the scheduler for that
 * submission, and the retry trains to its end: its {@code JobResult}, then one {@code JobCompleted}.
 */
@QuarkusTest
@TestProfile(MemoryRetryPipelineTest.RealJobs.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class MemoryRetryPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** Far below what a JVM with PyTorch holds: the first run is killed within its first checks (every 250 ms). */
    private static final long TOO_SMALL_MIB = 64;
    private static final String JOB = "memretry-iris-1";
    private static final String RETRY = JOB + "-mem-retry";
    /** Iris, a small MLP, at most 4 epochs: the retry ends in a few seconds of training. */
    private static final TrainingSpec SPEC = new TrainingSpec(RealJobSet.mlp(16), "iris", "adam", 0.02, 16, 4, 11L,
            new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.9));

    /** Real jobs on: the runner this checkout built, one at a time, in a fresh work directory. */
    public static class RealJobs implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                return RealRunner.oneAtATimeIn(Files.createTempDirectory("memory-retry-jobs"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @BeforeEach
    void runnerBuilt() {
        RealRunner.requireJar();
    }

    private static List<LifecycleEvent> lifecycle(TopicProbe probe, String jobId) {
        return probe.readAll(Topics.JOBS_LIFECYCLE).stream().filter(s -> s.key().equals(jobId))
                .map(s -> EventCodec.decode(s.value(), LifecycleEvent.class)).toList();
    }

    /** What the tuner and the scheduler would publish for a training job: its JobTuned, then its decision. */
    private static void tuneAndDecide(TopicProbe probe, String jobId, ResourceAmounts perTask, Instant submittedAt) {
        probe.send(Topics.JOBS_TUNED, jobId, EventCodec.encode(new JobTuned(Events.newId(), GantryEvent.SCHEMA_VERSION,
                Instant.now(), jobId, "ada", jobId, null, submittedAt, 1, perTask, null, null, null, null, List.of(),
                "unchanged", true, SPEC)));
        // No durationS: a real job runs until its runner ends.
        probe.send(Topics.SCHEDULING_DECISIONS, jobId, EventCodec.encode(new SchedulingDecision(Events.newId(),
                GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, "ada", List.of("sim-node-01"), perTask, null,
                submittedAt, "kube-default", "v1")));
    }

    @Test
    void aJobKilledForMemoryIsRetriedOnceWithMoreAndTheRetryCompletesWithItsResult() {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            tuneAndDecide(probe, JOB, new ResourceAmounts(0, 1000, TOO_SMALL_MIB), Instant.now());

            probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                    s -> s.key().equals(JOB) && s.value().contains("\"JobFailed\""));
            List<LifecycleEvent> first = lifecycle(probe, JOB);
            assertInstanceOf(JobStarted.class, first.get(0));
            JobFailed killed = assertInstanceOf(JobFailed.class, first.get(first.size() - 1), first.toString());
            assertTrue(killed.oomKilled(), killed.toString());
            assertTrue(killed.reason().contains("above its memory request of " + TOO_SMALL_MIB + " MiB"), killed.reason());

            JobSubmitted retry = EventCodec.decode(probe.await(Topics.JOBS_SUBMITTED, 1, WAIT,
                    s -> s.key().equals(RETRY)).get(0).value(), JobSubmitted.class);
            assertEquals(SPEC, retry.training(), "the retry trains the same spec");
            assertTrue(retry.perTask().memoryMib() >= 2 * TOO_SMALL_MIB, retry.perTask().toString());
            assertTrue(retry.violations().isEmpty(), retry.violations().toString());

            tuneAndDecide(probe, RETRY, retry.perTask(), retry.occurredAt());
            probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT,
                    s -> s.key().equals(RETRY) && s.value().contains("\"JobCompleted\""));

            List<LifecycleEvent> second = lifecycle(probe, RETRY);
            assertInstanceOf(JobStarted.class, second.get(0));
            assertInstanceOf(JobCompleted.class, second.get(second.size() - 1), second.toString());
            List<JobResult> results = second.stream().filter(JobResult.class::isInstance).map(JobResult.class::cast)
                    .toList();
            assertEquals(1, results.size(), "one result: " + second);
            JobResult result = results.get(0);
            assertEquals(1, result.attempt());
            assertTrue(result.epochsRun() >= 1 && result.epochsRun() <= SPEC.epochs(), result.toString());
            assertTrue(result.peakRssBytes() <= retry.perTask().memoryMib() * 1024 * 1024,
                    "the retry stayed within the request it was given: " + result);
            assertTrue(second.stream().filter(JobProgress.class::isInstance).count() >= result.epochsRun(),
                    "at least one progress per epoch");

            // Each job ended exactly once: the first as OOMKilled, the retry as completed; no retry of the retry.
            assertEquals(1, lifecycle(probe, JOB).stream().filter(LifecycleEvent::terminal).count());
            assertEquals(1, second.stream().filter(LifecycleEvent::terminal).count(), second.toString());
            assertEquals(1, second.stream().filter(JobStarted.class::isInstance).count());
            assertTrue(probe.readAll(Topics.JOBS_SUBMITTED).stream().noneMatch(s -> s.key().startsWith(RETRY + "-")));
        }
        assertEquals(1.0, memoryRetries(), "one retry counted");
    }

    private static double memoryRetries() {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(l -> l.startsWith("gantry_dispatcher_memory_retries"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst()
                .orElseThrow(() -> new AssertionError("gantry_dispatcher_memory_retries is not exported"));
    }
}
