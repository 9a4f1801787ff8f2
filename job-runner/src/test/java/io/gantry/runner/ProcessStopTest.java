package io.gantry.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.JobResult;
import io.gantry.events.TrainingSpec;
import io.gantry.training.model.Datasets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner as a real process: SIGTERM writes a checkpoint and exits 0; the next attempt resumes from it. */
class ProcessStopTest {

    @TempDir
    Path tmp;

    private Process start(Path spec, Path dir, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dai.djl.offline=true", "-Dai.djl.pytorch.num_threads=1",
                "-Dai.djl.pytorch.num_interop_threads=1", "-cp", System.getProperty("java.class.path"),
                JobRunner.class.getName(), "--spec", spec.toString(), "--job-id", "stop-1", "--user", "carol",
                "--checkpoint-dir", dir.toString(), "--datasets", Specs.datasets().toString()));
        cmd.addAll(List.of(extra));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out-" + System.nanoTime()).toFile())
                .start();
    }

    private static void awaitCheckpoint(Path dir, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (CheckpointFiles.list(dir).isEmpty()) {
            assertTrue(p.isAlive(), "the runner ended before its first checkpoint");
            assertTrue(System.nanoTime() < deadline, "no checkpoint within 120 s");
            Thread.sleep(50);
        }
    }

    @Test
    void sigtermCheckpointsAndTheNextAttemptEndsAsAnUninterruptedRun() throws Exception {
        TrainingSpec spec = Specs.digitsCnn(6, null, 21L);
        Path file = tmp.resolve("spec.json");
        Files.writeString(file, EventCodec.mapper().writeValueAsString(spec));
        Path dir = tmp.resolve("ckpt");
        Process p = start(file, dir);
        awaitCheckpoint(dir, p);
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "stops within a minute of SIGTERM");
        assertEquals(0, p.exitValue(), "a stop on request is a clean exit");
        assertTrue(Files.notExists(dir.resolve("result-1.json")), "stopped, not finished");
        int stoppedAt = CheckpointFiles.list(dir).size();
        assertTrue(stoppedAt >= 1);

        EventSink.Collecting sink = new EventSink.Collecting(null);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, JobRunner.run(new JobRunner.Args(file, "stop-1", "carol", 2, dir, Specs.datasets(), null, null,
                null), sink, () -> false, new PrintStream(log)));
        assertTrue(log.toString().contains("resumed from checkpoint-"), log.toString());
        JobResult resumed = (JobResult) sink.events.get(sink.events.size() - 1);
        assertEquals(6, resumed.epochsRun());
        assertEquals(2, resumed.attempt());

        try (Training t = new Training(spec, Datasets.load(Specs.datasets(), "digits"), tmp.resolve("straight"))) {
            Training.Outcome o = t.run(() -> false, (s, e) -> { });
            assertEquals(o.test().accuracy(), resumed.testAccuracy(), 0.0, "same test accuracy as an uninterrupted run");
            assertEquals(o.test().loss(), resumed.testLoss(), 0.0);
        }
    }

    @Test
    void theRunnerStopsWhenItsParentIsGone() throws Exception {
        Path file = tmp.resolve("spec.json");
        Files.writeString(file, EventCodec.mapper().writeValueAsString(Specs.digitsCnn(200, null, 2L)));
        // A parent that is already gone: a pid no process has (above the kernel's pid_max default of 4194304).
        Process p = start(file, tmp.resolve("orphan"), "--parent-pid", "4194305");
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "an orphaned runner ends by itself");
        assertEquals(0, p.exitValue());
    }
}
