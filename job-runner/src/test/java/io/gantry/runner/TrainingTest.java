package io.gantry.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.training.model.Datasets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingTest {

    @TempDir
    Path tmp;

    private static byte[] weights(Training t) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        t.writeWeights(out);
        return out.toByteArray();
    }

    @Test
    void anInterruptedAndResumedRunEndsWithTheSameWeightsAsAnUninterruptedOne() throws Exception {
        TrainingSpec spec = Specs.digitsCnn(2, null, 11L);
        Datasets.Loaded data = Datasets.load(Specs.datasets(), "digits");
        byte[] straight;
        double straightAccuracy;
        try (Training t = new Training(spec, data, tmp.resolve("straight"))) {
            Training.Outcome o = t.run(() -> false, (s, e) -> { });
            assertTrue(o.finished());
            straight = weights(t);
            straightAccuracy = o.test().accuracy();
        }
        // Stopped in the middle of the second epoch (40 steps an epoch): the checkpoint is at a step boundary.
        Path dir = tmp.resolve("interrupted");
        AtomicInteger steps = new AtomicInteger();
        try (Training t = new Training(spec, data, dir)) {
            Training.Outcome o = t.run(() -> steps.get() >= 53, (s, e) -> steps.set((int) s.globalStep()));
            assertFalse(o.finished());
            assertEquals(1, o.status().epochsDone());
            assertEquals(13, o.status().stepInEpoch());
        }
        byte[] resumed;
        double resumedAccuracy;
        try (Training t = new Training(spec, data, dir)) {
            assertTrue(t.resumeFromNewest());
            Training.Outcome o = t.run(() -> false, (s, e) -> { });
            assertTrue(o.finished());
            assertEquals(2, o.status().epochsDone());
            resumed = weights(t);
            resumedAccuracy = o.test().accuracy();
        }
        assertArrayEquals(straight, resumed, "bit-identical weights after stop and resume");
        assertEquals(straightAccuracy, resumedAccuracy, 0.0);
    }

    @Test
    void sgdAlsoResumesExactlyFromAnEpochCheckpoint() throws Exception {
        TrainingSpec spec = Specs.irisMlp(6, "sgd", null);
        Datasets.Loaded data = Datasets.load(Specs.datasets(), "iris");
        byte[] straight;
        try (Training t = new Training(spec, data, tmp.resolve("a"))) {
            t.run(() -> false, (s, e) -> { });
            straight = weights(t);
        }
        AtomicInteger epochs = new AtomicInteger();
        try (Training t = new Training(spec, data, tmp.resolve("b"))) {
            t.run(() -> epochs.get() >= 3, (s, e) -> epochs.set(s.epochsDone()));
        }
        try (Training t = new Training(spec, data, tmp.resolve("b"))) {
            assertTrue(t.resumeFromNewest());
            t.run(() -> false, (s, e) -> { });
            assertArrayEquals(straight, weights(t));
        }
    }

    @Test
    void digitsCnnReachesItsTargetWithProgressAtEveryEpochInOrder() throws Exception {
        Path spec = tmp.resolve("spec.json");
        Files.writeString(spec, EventCodec.mapper().writeValueAsString(
                Specs.digitsCnn(15, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.95), 3L)));
        EventSink.Collecting sink = new EventSink.Collecting(null);
        JobRunner.Args args = new JobRunner.Args(spec, "digits-1", "alice", 1, tmp.resolve("ckpt"), Specs.datasets(),
                null, null, null);
        assertEquals(0, JobRunner.run(args, sink, () -> false, new PrintStream(new ByteArrayOutputStream())));
        List<LifecycleEvent> events = sink.events;
        JobResult result = (JobResult) events.get(events.size() - 1);
        assertTrue(result.testAccuracy() >= 0.95, "test accuracy " + result.testAccuracy());
        assertNotNull(result.targetReachedEpoch());
        assertEquals(result.targetReachedEpoch().intValue(), result.epochsRun(), "stops at the target");
        int total = result.confusionMatrix().length;
        assertEquals(10, total);
        int correct = 0;
        int all = 0;
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 10; j++) {
                all += result.confusionMatrix()[i][j];
                correct += i == j ? result.confusionMatrix()[i][j] : 0;
            }
        }
        assertEquals(result.testAccuracy(), (double) correct / all, 1e-12, "accuracy is the matrix's diagonal");
        assertTrue(result.peakRssBytes() > 50L * 1024 * 1024, "measured RSS " + result.peakRssBytes());
        assertTrue(result.cpuSeconds() > 0);
        assertEquals(Specs.digitsCnn(1, null, 0L).modelKey(), result.modelKey());
        assertEquals("adam", result.optimizer(), "the tuner keys epochs to target on optimizer and target");
        assertEquals(new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.95), result.target());
        int lastEpoch = 0;
        double lastProgress = 0;
        for (LifecycleEvent e : events.subList(0, events.size() - 1)) {
            JobProgress p = (JobProgress) e;
            assertTrue(p.epoch() >= lastEpoch, "in order");
            // An epoch's end must not report the next epoch as done too (the studio's curves zigzagged when it did):
            // after `epoch` whole epochs of 15, progress lies in [epoch/15, (epoch+1)/15).
            assertTrue(p.progress() >= p.epoch() / 15.0 && p.progress() < (p.epoch() + 1) / 15.0,
                    "progress " + p.progress() + " at epoch " + p.epoch() + " of 15");
            assertTrue(p.progress() >= lastProgress, "progress never goes back: " + lastProgress + " then " + p.progress());
            lastProgress = p.progress();
            assertTrue(p.epoch() <= lastEpoch + 1, "no epoch without progress");
            lastEpoch = p.epoch();
            assertTrue(p.progress() >= 0 && p.progress() <= 1);
            assertTrue(EventCodec.decode(EventCodec.encode(p)).violations().isEmpty());
        }
        assertEquals(result.epochsRun(), lastEpoch);
        assertEquals(result.testAccuracy(), ((JobProgress) events.get(events.size() - 2)).accuracy(), 0.0,
                "the last progress carries the test accuracy the result reports");
        assertTrue(Files.exists(tmp.resolve("ckpt/result-1.json")));
    }
}
