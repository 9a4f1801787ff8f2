package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.events.TuningOptions;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.security.TestTokens;
import io.gantry.training.model.RealJobSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 21's live re-tune, end to end: the broker and the five services as processes, the dispatcher running a real
 * job-runner. Two digits jobs with a target are re-tuned after their first epoch through the tuner's
 * {@code POST /jobs/{id}/retune}. The first gets a new batch size: the {@code JobTuned} update reaches the dispatcher,
 * which restarts the runner from its checkpoint with it; the job is bound once, resumes where it was (steps and epochs
 * never go back), trains its later epochs at the new batch size, and completes with its target met. The second gets
 * more GPUs: the scheduler re-sizes it (stops it by its own next attempt, placed with the new request), and that
 * attempt's runner resumes from the first one's checkpoint and completes with its target met.
 */
class LiveRetunePipelineTest {

    private static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    private static final Path RUNNER = ROOT.resolve("job-runner/target/job-runner-0.1.0-SNAPSHOT.jar");
    private static final String JOB = "retune-digits";
    private static final String GROWN = "regpu-digits";
    /** Batch 8 at a small rate: epochs of about a second and many of them to the target, so the re-tune lands early. */
    private static final int FIRST_BATCH = 8;
    private static final int RETUNED_BATCH = 64;
    /** A CNN no built-in profile run measured (6 filters): the one-time tuner leaves it as submitted. */
    private static final TrainingSpec SPEC = new TrainingSpec(RealJobSet.cnn(6), "digits", "adam", 0.001, FIRST_BATCH,
            60, 2121L, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.95));

    @Test
    void realJobsReTunedWhileTheyRunChangeBatchSizeOrGpusResumeFromTheirCheckpointsAndReachTheirTargets()
            throws Exception {
        if (!Files.exists(RUNNER)) {
            throw new IllegalStateException(RUNNER + " is missing: build job-runner first (./mvnw -B -DskipTests package)");
        }
        Path datasets = Path.of(System.getProperty("gantry.shared.dir", ROOT.resolve("../shared").toString()), "datasets");
        try (GantryProcesses system = new GantryProcesses()) {
            system.startBroker();
            system.startServices(Map.of("GANTRY_SIMULATED_CLUSTER_NODES", "1", "GANTRY_SCHEDULER_POLICY", "kube-default",
                    "GANTRY_REAL_JOBS_RUNNER_JAR", RUNNER.toString(),
                    "GANTRY_REAL_JOBS_DATASETS_DIR", datasets.toString(), "GANTRY_REAL_JOBS_MAX_CONCURRENT", "1"));
            try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
                aNewBatchSizeRestartsTheRunnerInPlace(system, probe);
                moreGpusReSizeTheJobThroughTheScheduler(system, probe);
            }
        }
    }

    /** The batch re-tune: the runner restarts from its checkpoint on the same binding; one stint, one decision. */
    private static void aNewBatchSizeRestartsTheRunnerInPlace(GantryProcesses system, TopicProbe probe) throws Exception {
        List<LifecycleEvent> events = runReTuned(system, probe, JOB, new ResourceAmounts(0, 2000, 1024),
                "{\"batchSize\":" + RETUNED_BATCH + ",\"reason\":\"live test\"}");
        checkOneStintThatReachedItsTarget(events);
        checkResumedAtTheNewBatchSize(events);
        assertTrue(Files.readString(system.logs().resolve("data/real-jobs/" + JOB + "/runner-1.log"))
                .contains("resumed from checkpoint-"), "the restarted runner resumed from its checkpoint");

        List<JobTuned> tuned = tunings(probe, JOB);
        assertEquals(List.of(0, 1), tuned.stream().map(JobTuned::revision).toList(), "queued, then re-tuned once");
        assertEquals(RETUNED_BATCH, tuned.get(1).training().batchSize());
        assertEquals(1, decisions(probe, JOB).size(), "decided and bound once: the re-tune is no new decision");
    }

    /**
     * The GPU re-tune (issue 21, live grow): 1 GPU a task becomes 2. The scheduler stops the stint by the job's own next
     * attempt, placed with the new request; the dispatcher checkpoints the runner, announces the stop as a re-size and
     * starts attempt 2, which resumes from the checkpoint (steps never go back) and completes at its target.
     */
    private static void moreGpusReSizeTheJobThroughTheScheduler(GantryProcesses system, TopicProbe probe)
            throws Exception {
        List<LifecycleEvent> events = runReTuned(system, probe, GROWN, new ResourceAmounts(1000, 2000, 1024),
                "{\"gpus\":2,\"reason\":\"live test\"}");
        List<SchedulingDecision> decided = decisions(probe, GROWN);
        assertEquals(2, decided.size(), "one decision an attempt: " + decided);
        assertEquals(1000, decided.get(0).perTask().gpuMilli());
        assertEquals(2, decided.get(1).attempt());
        assertEquals(2000, decided.get(1).perTask().gpuMilli(), "placed again with the new request");
        assertEquals(List.of(new Preemption(GROWN, 1)), decided.get(1).preempts(), "it stops its own stint first");

        List<JobStarted> starts = events.stream().filter(JobStarted.class::isInstance).map(JobStarted.class::cast)
                .toList();
        assertEquals(List.of(1, 2), starts.stream().map(JobStarted::attempt).toList(), events.toString());
        List<JobPreempted> stops = events.stream().filter(JobPreempted.class::isInstance).map(JobPreempted.class::cast)
                .toList();
        assertEquals(1, stops.size(), events.toString());
        assertEquals(1, stops.get(0).attempt());
        assertTrue(stops.get(0).reason().startsWith("re-sized"), stops.get(0).reason());
        assertInstanceOf(JobCompleted.class, events.get(events.size() - 1), events.toString());
        assertEquals(1, events.stream().filter(LifecycleEvent::terminal).count(), events.toString());
        JobResult result = events.stream().filter(JobResult.class::isInstance).map(JobResult.class::cast)
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no result: " + events));
        assertNotNull(result.targetReachedEpoch(), "target met: " + result);
        assertTrue(result.testAccuracy() >= SPEC.target().value(), result.toString());
        assertEquals(2, result.attempt(), result.toString());
        checkProgressNeverGoesBack(events);
        assertTrue(Files.readString(system.logs().resolve("data/real-jobs/" + GROWN + "/runner-2.log"))
                .contains("resumed from checkpoint-"), "attempt 2's runner resumed from attempt 1's checkpoint");
        assertEquals(List.of(0, 1), tunings(probe, GROWN).stream().map(JobTuned::revision).toList());
        String metrics = system.get("sac-scheduler", "/q/metrics");
        assertTrue(metrics.contains("gantry_scheduler_resizes_total 1.0"), "one re-size counted: " + metrics.lines()
                .filter(l -> l.contains("resizes") || l.contains("preemptions")).toList());
        assertTrue(metrics.contains("gantry_scheduler_preemptions_total 0.0"), "and no preemption");
    }

    /**
     * Submits job {@code id} asking {@code perTask}, re-tunes it through the tuner's REST call with {@code body} once
     * its first epoch is done, and returns its lifecycle once it has ended.
     */
    private static List<LifecycleEvent> runReTuned(GantryProcesses system, TopicProbe probe, String id,
                                                   ResourceAmounts perTask, String body) throws Exception {
        JobSubmitted job = new JobSubmitted(Events.newId(), 1, Instant.now(), id, "ada", id, null, 1, perTask, null,
                null, null, new TuningOptions(true, 8, 256, null), true, SPEC);
        probe.send(Topics.JOBS_SUBMITTED, id, EventCodec.encode(job));
        probe.await(Topics.JOBS_LIFECYCLE, 1, Duration.ofSeconds(120), s -> id.equals(s.key())
                && s.value().contains("\"JobProgress\"")
                && EventCodec.decode(s.value(), JobProgress.class).epoch() >= 1);
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://localhost:" + system.port("job-tuner") + "/jobs/" + id + "/retune"))
                .header("Authorization", "Bearer " + TestTokens.admin())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, answer.statusCode(), answer.body());
        probe.await(Topics.JOBS_LIFECYCLE, 1, Duration.ofSeconds(180), s -> id.equals(s.key())
                && EventCodec.decode(s.value(), LifecycleEvent.class).terminal());
        return probe.readAll(Topics.JOBS_LIFECYCLE).stream().filter(s -> id.equals(s.key()))
                .map(s -> EventCodec.decode(s.value(), LifecycleEvent.class)).toList();
    }

    private static List<JobTuned> tunings(TopicProbe probe, String id) {
        return probe.readAll(Topics.JOBS_TUNED).stream().filter(s -> id.equals(s.key()))
                .map(s -> EventCodec.decode(s.value(), JobTuned.class)).toList();
    }

    private static List<SchedulingDecision> decisions(TopicProbe probe, String id) {
        return probe.readAll(Topics.SCHEDULING_DECISIONS).stream().filter(s -> id.equals(s.key()))
                .map(s -> EventCodec.decode(s.value(), SchedulingDecision.class)).toList();
    }

    /** One start, one result, one end (completed): nothing bound twice, nothing lost, the target met. */
    private static void checkOneStintThatReachedItsTarget(List<LifecycleEvent> events) {
        assertEquals(1, events.stream().filter(JobStarted.class::isInstance).count(), events.toString());
        assertInstanceOf(JobCompleted.class, events.get(events.size() - 1), events.toString());
        assertEquals(1, events.stream().filter(LifecycleEvent::terminal).count(), events.toString());
        List<JobResult> results = events.stream().filter(JobResult.class::isInstance).map(JobResult.class::cast).toList();
        assertEquals(1, results.size(), events.toString());
        JobResult result = results.get(0);
        assertNotNull(result.targetReachedEpoch(), "target met: " + result);
        assertTrue(result.testAccuracy() >= SPEC.target().value(), result.toString());
        List<Integer> batches = result.epochBatchSizes();
        assertEquals(FIRST_BATCH, batches.get(0), "epoch 1 at the queued batch size: " + batches);
        assertEquals(RETUNED_BATCH, batches.get(batches.size() - 1), "the last at the re-tuned one: " + batches);
        assertEquals(RETUNED_BATCH, result.batchSize());
        assertTrue(result.retuned());
    }

    /** Steps and epochs never go back: resumed, not trained from scratch. */
    private static List<JobProgress> checkProgressNeverGoesBack(List<LifecycleEvent> events) {
        List<JobProgress> progress = events.stream().filter(JobProgress.class::isInstance).map(JobProgress.class::cast)
                .toList();
        long step = -1;
        int epoch = 0;
        for (JobProgress p : progress) {
            assertTrue(p.step() >= step && p.epoch() >= epoch, "steps and epochs never go back: " + progress);
            step = p.step();
            epoch = p.epoch();
        }
        return progress;
    }

    /** Progress says which batch size each epoch used, and never goes back. */
    private static void checkResumedAtTheNewBatchSize(List<LifecycleEvent> events) {
        List<JobProgress> progress = checkProgressNeverGoesBack(events);
        JobProgress firstRetuned = progress.stream().filter(p -> p.batchSize() == RETUNED_BATCH).findFirst()
                .orElseThrow(() -> new AssertionError("no progress at batch size " + RETUNED_BATCH + ": " + progress));
        assertTrue(firstRetuned.epoch() >= 1, "the new batch size starts after epoch 1, where the job was: " + firstRetuned);
        assertTrue(progress.stream().anyMatch(p -> p.batchSize() == FIRST_BATCH && p.epoch() >= 1), progress.toString());
    }
}
