package io.gantry.tuner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobResult;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ModelGraph;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.MetricsScrape;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The tuner on real training jobs, through a real broker: it learns from the job runner's {@code JobResult}s on the
 * lifecycle topic and its output, the {@code JobTuned} on {@code gantry.jobs.tuned}, carries right-sized requests and
 * measured hyper-parameters.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class RealJobTuningPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long MIB = 1024L * 1024L;

    /** An MLP on iris with {@code hidden} units (each test its own model, so their runs do not mix). */
    static TrainingSpec spec(int hidden, int batch, double lr, int epochs) {
        return new TrainingSpec(new ModelGraph(List.of(
                new ModelGraph.Layer("in", "Input", Map.of("shape", List.of(4))),
                new ModelGraph.Layer("fc1", "Linear", Map.of("units", hidden)),
                new ModelGraph.Layer("relu", "ReLU", Map.of()),
                new ModelGraph.Layer("out", "Output", Map.of("units", 3))),
                List.of(new ModelGraph.Edge("in", "fc1"), new ModelGraph.Edge("fc1", "relu"),
                        new ModelGraph.Edge("relu", "out"))),
                "iris", "sgd", lr, batch, epochs, 7L, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.9));
    }

    private static JobSubmitted submit(String id, TrainingSpec training, TuningOptions tuning) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, "alice", id, null, 1,
                new ResourceAmounts(0, 2000, 4096), null, null, null, tuning, true, training);
    }

    /** What the runner publishes at the end of a run (attempt 1): naming its optimiser and target, as it does. */
    private static JobResult result(String jobId, TrainingSpec s, int batch, double lr, int epochs, long peakRss,
                                    double cpuSeconds, double wallSeconds) {
        return new JobResult(Events.newId(), 1, Instant.now(), jobId, "alice", 1, 0.95, 0.2,
                new int[][] {{10, 0, 0}, {0, 9, 1}, {0, 1, 9}}, epochs, epochs, peakRss, cpuSeconds, wallSeconds,
                100.0 * epochs / wallSeconds, s.modelKey(), batch, lr, s.optimizer(), s.target());
    }

    private static void awaitMeasuredRuns(Predicate<Double> until) {
        MetricsScrape.await(WAIT, "gantry_tuner_measured_runs", body -> until.test(measuredRuns(body).orElse(-1)));
    }

    private static double measuredRuns() {
        return measuredRuns(MetricsScrape.read()).orElseThrow();
    }

    private static OptionalDouble measuredRuns(String body) {
        return body.lines().filter(l -> l.startsWith("gantry_tuner_measured_runs "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1))).findFirst();
    }

    @Test
    void afterFiveRunsOfAModelTheSixthIsRightSizedWithinOneAndAHalfTimesTheMeasuredPeakAndNotBelowIt() {
        TrainingSpec s = spec(23, 16, 0.05, 40);
        long[] peaksMib = {402, 418, 396, 431, 409};
        double before = measuredRuns();
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (int i = 0; i < peaksMib.length; i++) {
                JobResult r = result("rs-run-" + i, s, 16, 0.05, 12, peaksMib[i] * MIB, 9.0 + i, 8.0);
                probe.send(Topics.JOBS_LIFECYCLE, r.jobId(), EventCodec.encode(r));
            }
            awaitMeasuredRuns(n -> n >= before + peaksMib.length);
            probe.send(Topics.JOBS_SUBMITTED, "rs-run-5", EventCodec.encode(submit("rs-run-5", s, null)));
            JobTuned tuned = EventCodec.decode(probe.await(Topics.JOBS_TUNED, 1, WAIT,
                    x -> x.key().equals("rs-run-5")).get(0).value(), JobTuned.class);

            long peak = 431 * MIB;
            long request = tuned.perTask().memoryMib() * MIB;
            assertTrue(request >= peak, "memory request " + tuned.perTask().memoryMib() + " MiB below the peak 431 MiB");
            assertTrue(request <= 1.5 * peak, "memory request " + tuned.perTask().memoryMib()
                    + " MiB more than 1.5 × the peak 431 MiB");
            // CPU: the runs used 9/8 to 13/8 cores; the request covers the most any needed.
            assertTrue(tuned.perTask().cpuMilli() >= 1625 && tuned.perTask().cpuMilli() < 2000, tuned.toString());
            TuningChange mem = tuned.changes().stream().filter(c -> c.field().equals("perTask.memoryMib")).findFirst()
                    .orElseThrow(() -> new AssertionError("no memory change: " + tuned.changes()));
            assertEquals("4096", mem.from());
            assertTrue(mem.reason().contains("5 runs"), mem.reason());
            assertEquals(s, tuned.training(), "no faster batch measured: the hyper-parameters stay");
        }
    }

    @Test
    void aBatchMeasuredFasterToTheTargetIsChosenWithAScaledLearningRateAndTheTargetKept() {
        TrainingSpec s = spec(29, 16, 0.05, 40);
        double before = measuredRuns();
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            // Batch 16 needs 12 epochs of 1 s; batch 64 at 4 × the rate needs 15 epochs of 0.3 s.
            List<JobResult> runs = List.of(result("hp-16a", s, 16, 0.05, 12, 300 * MIB, 12, 12.0),
                    result("hp-64a", s, 64, 0.2, 15, 300 * MIB, 4.5, 4.5),
                    result("hp-64b", s, 64, 0.2, 14, 300 * MIB, 4.2, 4.2));
            runs.forEach(r -> probe.send(Topics.JOBS_LIFECYCLE, r.jobId(), EventCodec.encode(r)));
            awaitMeasuredRuns(n -> n >= before + runs.size());
            probe.send(Topics.JOBS_SUBMITTED, "hp-next", EventCodec.encode(submit("hp-next", s, null)));
            probe.send(Topics.JOBS_SUBMITTED, "hp-bounded",
                    EventCodec.encode(submit("hp-bounded", s, new TuningOptions(true, null, 32, null))));
            probe.send(Topics.JOBS_SUBMITTED, "hp-off",
                    EventCodec.encode(submit("hp-off", s, new TuningOptions(false, null, null, null))));
            List<TopicProbe.Seen> out = probe.await(Topics.JOBS_TUNED, 3, WAIT, x -> x.key().startsWith("hp-"));
            Map<String, JobTuned> byJob = new java.util.HashMap<>();
            out.forEach(x -> byJob.put(x.key(), EventCodec.decode(x.value(), JobTuned.class)));

            JobTuned tuned = byJob.get("hp-next");
            assertNotNull(tuned);
            assertEquals(64, tuned.training().batchSize());
            assertEquals(0.2, tuned.training().learningRate(), 1e-12);
            assertEquals(40, tuned.training().epochs(), "the user's 40 epochs cover 1.5 × 15");
            assertEquals(s.target(), tuned.training().target(), "the run still stops at the target");
            assertEquals(s.seed(), tuned.training().seed());
            assertEquals(15 * 0.3, tuned.predictedDurationS(), 1e-9);

            assertEquals(16, byJob.get("hp-bounded").training().batchSize(), "maxBatchSize 32 excludes 64");
            assertEquals(s, byJob.get("hp-off").training(), "tuning off: the spec as submitted");
            assertEquals(new ResourceAmounts(0, 2000, 4096), byJob.get("hp-off").perTask());
        }
    }
}
