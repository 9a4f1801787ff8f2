package io.gantry.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.TrainingSpec;
import io.gantry.training.model.Datasets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run resumed with another batch size (the job was re-tuned while it ran): the new batch size starts at an epoch
 * boundary, every epoch's batch size is reported, and the run is deterministic for its sequence of batch sizes.
 */
class RetunedResumeTest {

    @TempDir
    Path tmp;

    private static final Datasets.Loaded IRIS = Datasets.load(Specs.datasets(), "iris");

    private static TrainingSpec withBatch(TrainingSpec s, int batch) {
        return s.with(batch, s.learningRate(), s.epochs());
    }

    /** Trains {@code spec} until {@code stop} says so, in {@code dir}. */
    private static void trainUntil(TrainingSpec spec, Path dir, java.util.function.IntPredicate stopAtStep)
            throws Exception {
        AtomicInteger step = new AtomicInteger();
        try (Training t = new Training(spec, IRIS, dir)) {
            assertFalse(t.run(() -> stopAtStep.test(step.get()), (s, e) -> step.set((int) s.globalStep())).finished());
        }
    }

    private static byte[] resumeToEnd(TrainingSpec spec, Path dir, List<Integer> expectedBatches) throws Exception {
        try (Training t = new Training(spec, IRIS, dir)) {
            assertTrue(t.resumeFromNewest());
            assertTrue(t.run(() -> false, (s, e) -> { }).finished());
            assertEquals(expectedBatches, t.epochBatchSizes());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            t.writeWeights(out);
            return out.toByteArray();
        }
    }

    @Test
    void aCheckpointAtAnEpochEndTrainsTheNextEpochAtTheNewBatchSize() throws Exception {
        TrainingSpec at16 = Specs.irisMlp(5, "adam", null);
        TrainingSpec at32 = withBatch(at16, 32);
        // 102 training rows: 7 steps an epoch at 16; stop before the first step of epoch 3.
        trainUntil(at16, tmp.resolve("a"), step -> step >= 14);
        byte[] a = resumeToEnd(at32, tmp.resolve("a"), List.of(16, 16, 32, 32, 32));
        trainUntil(at16, tmp.resolve("b"), step -> step >= 14);
        byte[] b = resumeToEnd(at32, tmp.resolve("b"), List.of(16, 16, 32, 32, 32));
        assertArrayEquals(a, b, "one seed, one sequence of batch sizes: the same weights");
        byte[] never;
        try (Training t = new Training(at16, IRIS, tmp.resolve("never"))) {
            t.run(() -> false, (s, e) -> { });
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            t.writeWeights(out);
            never = out.toByteArray();
        }
        assertFalse(java.util.Arrays.equals(a, never), "a re-tuned run takes other steps than one never re-tuned");
    }

    @Test
    void aCheckpointMidEpochFinishesThatEpochAtTheOldBatchSize() throws Exception {
        TrainingSpec at16 = Specs.irisMlp(4, "adam", null);
        trainUntil(at16, tmp.resolve("mid"), step -> step >= 10); // 3 steps into epoch 2
        resumeToEnd(withBatch(at16, 8), tmp.resolve("mid"), List.of(16, 16, 8, 8));
    }

    @Test
    void progressAndResultSayWhichBatchSizeEachEpochUsed() throws Exception {
        TrainingSpec at16 = Specs.irisMlp(4, "adam", null);
        Path dir = tmp.resolve("ckpt");
        trainUntil(at16, dir, step -> step >= 7); // one epoch at 16
        Path spec = tmp.resolve("spec.json");
        Files.writeString(spec, EventCodec.mapper().writeValueAsString(withBatch(at16, 32)));
        EventSink.Collecting sink = new EventSink.Collecting(null);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, JobRunner.run(new JobRunner.Args(spec, "retune-1", "ada", 1, dir, Specs.datasets(), null, null,
                null), sink, () -> false, new PrintStream(log)));
        assertTrue(log.toString().contains("resumed from checkpoint-") && log.toString().contains("[16]"),
                log.toString());
        List<LifecycleEvent> events = sink.events;
        JobResult result = (JobResult) events.get(events.size() - 1);
        assertEquals(List.of(16, 32, 32, 32), result.epochBatchSizes());
        assertEquals(32, result.batchSize());
        assertTrue(result.retuned());
        assertTrue(result.violations().isEmpty(), result.violations().toString());
        List<JobProgress> epochEnds = events.stream().filter(e -> e instanceof JobProgress p
                && p.progress() * 4 == p.epoch()).map(e -> (JobProgress) e).toList();
        assertEquals(List.of(2, 3, 4), epochEnds.stream().map(JobProgress::epoch).toList());
        assertTrue(epochEnds.stream().allMatch(p -> p.batchSize() == 32), epochEnds.toString());
    }
}
