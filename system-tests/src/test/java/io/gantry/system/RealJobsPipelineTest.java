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
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TuningOptions;
import io.gantry.kafka.TopicProbe;
import io.gantry.training.model.RealJobSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real training jobs through the whole pipeline (broker and five services as processes, the dispatcher running
 * job-runner processes): the four kinds of the documented set reach their targets, every epoch of every real job is
 * reported in order with accuracies that match the result, trace jobs still sleep, and a real job stopped by a more
 * urgent one resumes from its checkpoint and ends exactly as an uninterrupted run of the same seed.
 */
class RealJobsPipelineTest {

    private static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    private static final Path RUNNER = ROOT.resolve("job-runner/target/job-runner-0.1.0-SNAPSHOT.jar");
    private static final ResourceAmounts WHOLE_NODE = new ResourceAmounts(8000, 8000, 16384);

    private static JobSubmitted real(String id, String user, ResourceAmounts perTask, TrainingSpec spec) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, user, id, null, 1, perTask, null, null, null,
                new TuningOptions(false, null, null, null), true, spec);
    }

    private static JobSubmitted trace(String id, ResourceAmounts perTask, double durationS) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, "trace-user", id, null, 1, perTask, null, null,
                durationS, null);
    }

    @Test
    void realJobsTrainReportEveryEpochAndResumeAfterPreemption() throws Exception {
        if (!Files.exists(RUNNER)) {
            throw new IllegalStateException(RUNNER + " is missing: build job-runner first (./mvnw -B -DskipTests package)");
        }
        Path datasets = Path.of(System.getProperty("gantry.shared.dir", ROOT.resolve("../shared").toString()), "datasets");
        try (GantryProcesses system = new GantryProcesses()) {
            system.startBroker();
            // One node, tiresias: a job that has run a while (attained GPU-seconds) yields to a newcomer.
            system.startServices(Map.of("GANTRY_SIMULATED_CLUSTER_NODES", "1",
                    "GANTRY_SIMULATED_CLUSTER_SPEEDUP", "1000", "GANTRY_SCHEDULER_POLICY", "tiresias",
                    "GANTRY_REAL_JOBS_RUNNER_JAR", RUNNER.toString(),
                    "GANTRY_REAL_JOBS_DATASETS_DIR", datasets.toString(),
                    "GANTRY_REAL_JOBS_MAX_CONCURRENT", "1"));
            // The victim: the whole node's GPUs, 10 epochs of the digits CNN without a target.
            TrainingSpec victimSpec = new TrainingSpec(RealJobSet.cnn(8), "digits", "adam", 0.005, 32, 10, 4242L, null);
            List<RealJobSet.RealJob> set = RealJobSet.first(4, 900);
            Map<String, RealJobSet.RealJob> targets = new HashMap<>();
            try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
                JobSubmitted victim = real("victim", "low", WHOLE_NODE, victimSpec);
                probe.send(Topics.JOBS_SUBMITTED, victim.jobId(), EventCodec.encode(victim));
                // Wait until it has trained two epochs (a checkpoint exists), then the urgent job arrives.
                probe.await(Topics.JOBS_LIFECYCLE, 1, Duration.ofSeconds(120), s -> "victim".equals(s.key())
                        && s.value().contains("\"JobProgress\"")
                        && EventCodec.decode(s.value(), JobProgress.class).epoch() >= 2);
                JobSubmitted urgent = trace("urgent", WHOLE_NODE, 3000);
                probe.send(Topics.JOBS_SUBMITTED, urgent.jobId(), EventCodec.encode(urgent));
                for (int i = 0; i < set.size(); i++) {
                    RealJobSet.RealJob r = set.get(i);
                    JobSubmitted j = real("real-" + i, r.user(), r.perTask(), r.spec());
                    targets.put(j.jobId(), r);
                    probe.send(Topics.JOBS_SUBMITTED, j.jobId(), EventCodec.encode(j));
                }
                for (int i = 0; i < 6; i++) {
                    JobSubmitted t = trace("trace-" + i, new ResourceAmounts(0, 1000, 1024), 500 + 100 * i);
                    probe.send(Topics.JOBS_SUBMITTED, t.jobId(), EventCodec.encode(t));
                }
                // The uninterrupted twin of the victim: same spec, same seed, submitted last.
                JobSubmitted twin = real("twin", "low", new ResourceAmounts(0, 1000, 1024), victimSpec);
                probe.send(Topics.JOBS_SUBMITTED, twin.jobId(), EventCodec.encode(twin));
                int jobs = 2 + set.size() + 6 + 1;
                probe.await(Topics.JOBS_LIFECYCLE, jobs, Duration.ofSeconds(420),
                        s -> EventCodec.decode(s.value(), LifecycleEvent.class).terminal());

                Map<String, List<LifecycleEvent>> byJob = new HashMap<>();
                for (TopicProbe.Seen s : probe.readAll(Topics.JOBS_LIFECYCLE)) {
                    LifecycleEvent e = EventCodec.decode(s.value(), LifecycleEvent.class);
                    byJob.computeIfAbsent(e.jobId(), k -> new ArrayList<>()).add(e);
                }
                for (int i = 0; i < 6; i++) {
                    List<LifecycleEvent> t = byJob.get("trace-" + i);
                    assertInstanceOf(JobCompleted.class, t.get(t.size() - 1), "trace job " + i + ": " + t);
                    assertTrue(t.stream().noneMatch(e -> e instanceof JobProgress || e instanceof JobResult),
                            "a trace job only sleeps");
                }
                for (Map.Entry<String, RealJobSet.RealJob> e : targets.entrySet()) {
                    JobResult result = checkReported(e.getKey(), byJob.get(e.getKey()), 1);
                    assertTrue(result.testAccuracy() >= e.getValue().target(), e.getValue().name() + " reached "
                            + result.testAccuracy() + ", target " + e.getValue().target());
                    assertEquals(result.epochsRun(), result.targetReachedEpoch().intValue(), "stopped at its target");
                }

                // The victim: preempted once while training, resumed from its checkpoint, same end as its twin.
                List<LifecycleEvent> v = byJob.get("victim");
                JobPreempted stop = (JobPreempted) v.stream().filter(e -> e instanceof JobPreempted).findFirst()
                        .orElseThrow(() -> new AssertionError("the victim was never preempted: " + v));
                assertEquals(1, stop.attempt());
                JobResult resumed = checkReported("victim", v, 2);
                JobResult uninterrupted = checkReported("twin", byJob.get("twin"), 1);
                assertEquals(10, resumed.epochsRun());
                assertEquals(uninterrupted.testAccuracy(), resumed.testAccuracy(), 0.0,
                        "same test accuracy as the uninterrupted run of the same seed");
                assertEquals(uninterrupted.testLoss(), resumed.testLoss(), 0.0);
                // Resumed, not restarted: progress steps never go back, so fewer than twice the run was trained.
                int stopIndex = v.indexOf(stop);
                long lastStepBefore = v.subList(0, stopIndex).stream().filter(e -> e instanceof JobProgress)
                        .mapToLong(e -> ((JobProgress) e).step()).max().orElse(0);
                JobProgress firstAfter = (JobProgress) v.subList(stopIndex, v.size()).stream()
                        .filter(e -> e instanceof JobProgress).findFirst().orElseThrow();
                assertTrue(lastStepBefore > 0 && firstAfter.step() > lastStepBefore, "resumed at step "
                        + firstAfter.step() + " after step " + lastStepBefore + " was reported");
                int epochsBefore = v.subList(0, stopIndex).stream().filter(e -> e instanceof JobProgress)
                        .mapToInt(e -> ((JobProgress) e).epoch()).max().orElse(0);
                int epochsAfter = 10 - (firstAfter.epoch() - (firstAfter.progress() * 10 > firstAfter.epoch() ? 0 : 1));
                assertTrue(epochsBefore >= 2 && epochsBefore + epochsAfter < 20, "epochs trained: " + epochsBefore
                        + " before the stop, at most " + epochsAfter + " after");
            }
        }
    }

    /**
     * The job completed after one JobResult of {@code attempt}; every epoch of that attempt has progress, in order,
     * and the last progress's accuracy is the result's (for test-accuracy targets) or validation accuracy.
     */
    private static JobResult checkReported(String jobId, List<LifecycleEvent> events, int attempt) {
        assertNotNull(events, jobId + " has no events");
        LifecycleEvent last = events.get(events.size() - 1);
        assertInstanceOf(JobCompleted.class, last, jobId + " ended " + last);
        List<JobResult> results = events.stream().filter(e -> e instanceof JobResult).map(e -> (JobResult) e).toList();
        assertEquals(1, results.size(), jobId + ": one result");
        JobResult result = results.get(0);
        assertEquals(attempt, result.attempt());
        int startOfAttempt = 0;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof JobStarted s && s.attempt() == attempt) {
                startOfAttempt = i;
            }
        }
        List<JobProgress> progress = events.subList(startOfAttempt, events.size()).stream()
                .filter(e -> e instanceof JobProgress).map(e -> (JobProgress) e).toList();
        int epoch = progress.isEmpty() ? 0 : progress.get(0).epoch();
        long step = -1;
        for (JobProgress p : progress) {
            assertTrue(p.epoch() == epoch || p.epoch() == epoch + 1, jobId + ": epochs in order, none skipped: " + progress);
            assertTrue(p.step() >= step, jobId + ": steps in order");
            epoch = p.epoch();
            step = p.step();
            assertTrue(p.validationAccuracy() == null || (p.validationAccuracy() >= 0 && p.validationAccuracy() <= 1));
        }
        assertEquals(result.epochsRun(), epoch, jobId + ": the last progress is at the result's epoch");
        JobProgress final_ = progress.get(progress.size() - 1);
        if (result.targetReachedEpoch() != null) {
            assertEquals(result.testAccuracy(), final_.accuracy(), 0.0, jobId + ": progress and result agree");
        }
        int correct = 0;
        int all = 0;
        for (int i = 0; i < result.confusionMatrix().length; i++) {
            for (int j = 0; j < result.confusionMatrix().length; j++) {
                all += result.confusionMatrix()[i][j];
                correct += i == j ? result.confusionMatrix()[i][j] : 0;
            }
        }
        assertEquals(result.testAccuracy(), (double) correct / all, 1e-12);
        assertTrue(result.peakRssBytes() > 0 && result.cpuSeconds() > 0, "usage measured");
        return result;
    }
}
