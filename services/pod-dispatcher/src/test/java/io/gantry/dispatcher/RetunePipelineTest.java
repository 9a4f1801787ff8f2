package io.gantry.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobStarted;
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
 * The dispatcher's side of a live re-tune, through the real broker with the real job-runner: the test plays the tuner
 * and the scheduler; after the job's first epoch its {@code JobTuned} update comes twice (a redelivery) and a stale
 * revision 0 after it. The runner is restarted once, from its checkpoint, at the new batch size; the job stays one
 * stint and completes.
 */
@QuarkusTest
@TestProfile(RetunePipelineTest.RealJobs.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class RetunePipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String JOB = "retune-dispatch-1";
    private static final ResourceAmounts PER_TASK = new ResourceAmounts(0, 1000, 1024);
    private static final TrainingSpec SPEC = new TrainingSpec(RealJobSet.cnn(8), "digits", "adam", 0.005, 16, 20, 5L,
            new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.95));
    /** Named by the test JVM's pid: the profile and the test may be loaded by different class loaders. */
    private static final Path WORK_DIR = Path.of(System.getProperty("java.io.tmpdir"),
            "gantry-retune-jobs-" + ProcessHandle.current().pid());

    /** Real jobs on: the runner this checkout built, one at a time, in a fresh work directory. */
    public static class RealJobs implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Files.createDirectories(WORK_DIR);
                return RealRunner.oneAtATimeIn(WORK_DIR);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @BeforeEach
    void runnerBuilt() {
        RealRunner.requireJar();
    }

    private static String tuned(TrainingSpec spec, int revision, String eventId) {
        return EventCodec.encode(new JobTuned(eventId, GantryEvent.SCHEMA_VERSION, Instant.now(), JOB, "ada", JOB,
                null, Instant.now(), 1, PER_TASK, null, null, null, null, List.of(), "test", true, spec, revision));
    }

    @Test
    void anUpdateRestartsTheRunnerOnceFromItsCheckpointAndRedeliveriesAndStaleRevisionsChangeNothing() throws Exception {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            String first = Events.newId();
            probe.send(Topics.JOBS_TUNED, JOB, tuned(SPEC, 0, first));
            probe.send(Topics.SCHEDULING_DECISIONS, JOB, EventCodec.encode(new SchedulingDecision(Events.newId(),
                    GantryEvent.SCHEMA_VERSION, Instant.now(), JOB, "ada", List.of("sim-node-01"), PER_TASK, null,
                    Instant.now(), "kube-default", "v1")));
            probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT, s -> s.key().equals(JOB) && s.value().contains("\"JobProgress\"")
                    && EventCodec.decode(s.value(), JobProgress.class).epoch() >= 1);

            String update = tuned(SPEC.with(64, 0.01, 20), 1, Events.newId());
            probe.send(Topics.JOBS_TUNED, JOB, update);
            probe.send(Topics.JOBS_TUNED, JOB, update);
            probe.send(Topics.JOBS_TUNED, JOB, tuned(SPEC, 0, first));
            probe.await(Topics.JOBS_LIFECYCLE, 1, WAIT, s -> s.key().equals(JOB) && s.value().contains("\"JobCompleted\""));

            List<LifecycleEvent> events = probe.readAll(Topics.JOBS_LIFECYCLE).stream().filter(s -> s.key().equals(JOB))
                    .map(s -> EventCodec.decode(s.value(), LifecycleEvent.class)).toList();
            assertEquals(1, events.stream().filter(JobStarted.class::isInstance).count(), events.toString());
            assertEquals(1, events.stream().filter(LifecycleEvent::terminal).count(), events.toString());
            assertInstanceOf(JobCompleted.class, events.get(events.size() - 1));
            JobResult result = events.stream().filter(JobResult.class::isInstance).map(JobResult.class::cast)
                    .findFirst().orElseThrow();
            assertEquals(16, result.epochBatchSizes().get(0), result.toString());
            assertEquals(64, result.batchSize(), "the stale revision 0 did not turn it back: " + result);
            assertTrue(result.targetReachedEpoch() != null, result.toString());
        }
        String log = Files.readString(WORK_DIR.resolve(JOB + "/runner-1.log"));
        assertEquals(2, log.lines().filter(l -> l.startsWith("job-runner: job " + JOB)).count(),
                "started, then restarted once for the update (the redelivery and the stale revision change nothing): " + log);
        assertTrue(log.contains("resumed from checkpoint-"), log);
    }
}
