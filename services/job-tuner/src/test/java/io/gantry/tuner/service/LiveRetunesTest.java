package io.gantry.tuner.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LiveRetunesTest {

    private static JobTuned queued(String jobId) {
        return queued(jobId, 1, 0);
    }

    /** Job {@code jobId} before queueing: {@code tasks} tasks of {@code gpuMilli}, 1 vCPU and 768 MiB each. */
    private static JobTuned queued(String jobId, int tasks, long gpuMilli) {
        return new JobTuned(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, "ada", jobId, null,
                Instant.now(), tasks, new ResourceAmounts(gpuMilli, 1000, 768), null, null, null, null, List.of(),
                "unchanged", true, RunnerHistoryTest.SPEC);
    }

    private static LiveRetunes retunes() {
        return new LiveRetunes(new JobTuner(JobTunerBoundsTest.config(Optional.empty())));
    }

    private static int refusedStatus(LiveRetunes r, String jobId, int batch) {
        return refused(r, jobId, batch, null).status();
    }

    private static SubmissionLimits.Refused refused(LiveRetunes r, String jobId, Integer batch, Integer gpus) {
        return assertThrows(JobSubmissions.Refused.class, () -> r.requested(jobId, batch, gpus, null)).refusal();
    }

    @Test
    void aReTuneRememberedAfterTheJobEndedDoesNotBringItBack() {
        LiveRetunes r = retunes();
        r.tuned(queued("j1"), new TuningOptions(true, 8, 64, null));
        JobTuned update = r.requested("j1", 32, null, "test");
        assertEquals(1, update.revision());
        assertEquals(32, update.training().batchSize());

        // The REST resource remembers an update once Kafka took it; the job's end may be read in between.
        r.ended("j1");
        r.tuned(update, null);
        assertEquals(404, refusedStatus(r, "j1", 16), "an ended job is re-tuned no more");

        // A job that has not ended is remembered as before, and its newest revision counts.
        r.tuned(queued("j2"), new TuningOptions(true, 8, 64, null));
        r.tuned(r.requested("j2", 32, null, null), null);
        assertEquals(409, refusedStatus(r, "j2", 32), "32 is j2's batch size already, from revision 1");
    }

    @Test
    void aGpusOnlyReTuneChangesThePerTaskGpusAndNothingOfTheTraining() {
        LiveRetunes r = retunes();
        JobTuned queued = queued("g1", 1, 1000);
        r.tuned(queued, new TuningOptions(true, 8, 64, null));
        JobTuned update = r.requested("g1", null, 2, "a larger model");
        assertEquals(1, update.revision());
        assertEquals(Events.derivedId("retuned-1", queued.eventId()), update.eventId(), "the id scheme is unchanged");
        assertEquals(new ResourceAmounts(2000, 1000, 768), update.perTask(), "GPUs only: vCPUs and memory kept");
        assertSame(queued.training(), update.training(), "the batch, and so the learning rate, is the job's own");
        assertEquals(1, update.changes().size(), update.changes().toString());
        TuningChange gpus = update.changes().get(0);
        assertEquals("perTask.gpuMilli", gpus.field());
        assertEquals("1000", gpus.from());
        assertEquals("2000", gpus.to());
        assertTrue(gpus.reason().startsWith("re-tuned on request: a larger model; the scheduler stops the job "
                + "(checkpoint) and places it again"), gpus.reason());
        assertEquals("revision 1: GPUs per task 1 → 2 while it runs", update.summary());
        assertTrue(update.violations().isEmpty(), update.violations().toString());

        // The next re-tune builds on it: a batch-only one keeps the new GPUs.
        r.tuned(update, null);
        JobTuned batch = r.requested("g1", 32, null, null);
        assertEquals(2000, batch.perTask().gpuMilli());
        assertEquals(List.of("training.batchSize", "training.learningRate"),
                batch.changes().stream().map(TuningChange::field).toList());
        assertEquals("revision 2: batch 16 → 32 while it runs", batch.summary());
    }

    @Test
    void batchAndGpusTogetherAreOneRevisionWithBothChanges() {
        LiveRetunes r = retunes();
        r.tuned(queued("b1", 2, 500), new TuningOptions(true, 8, 64, 8));
        JobTuned update = r.requested("b1", 32, 4, "both");
        assertEquals(1, update.revision());
        assertEquals(32, update.training().batchSize());
        assertEquals(0.01 * Math.sqrt(2), update.training().learningRate(), 1e-12, "adam: square-root scaling");
        assertEquals(new ResourceAmounts(4000, 1000, 768), update.perTask());
        assertEquals(2, update.tasks());
        assertEquals(List.of("training.batchSize", "training.learningRate", "perTask.gpuMilli"),
                update.changes().stream().map(TuningChange::field).toList());
        assertEquals("500", update.changes().get(2).from(), "a fraction of a GPU before is said as it was");
        assertEquals("revision 1: batch 16 → 32, GPUs per task 0.5 → 4 while it runs", update.summary());
    }

    @Test
    void gpusOutsideTheContractOrTheSubmittersMaxGpusAndEmptyRequestsAreRefusedWithTheirField() {
        LiveRetunes r = retunes();
        r.tuned(queued("m1", 2, 1000), new TuningOptions(true, 8, 64, 6));
        SubmissionLimits.Refused over = refused(r, "m1", null, 4);
        assertEquals(400, over.status());
        assertEquals("gpus", over.rejection().field());
        assertEquals("must be 0 to 3 GPUs per task (the submitter's tuning.maxGpus 6 over 2 tasks), was 4",
                over.rejection().reason());
        assertEquals(3000, r.requested("m1", null, 3, null).perTask().gpuMilli(), "2 tasks × 3 GPUs is within 6");

        r.tuned(queued("m2", 1, 1000), null);
        SubmissionLimits.Refused negative = refused(r, "m2", null, -1);
        assertEquals("gpus", negative.rejection().field());
        assertEquals("must be 0 to 8 GPUs per task (the largest node has 8), was -1", negative.rejection().reason());
        assertEquals("must be 0 to 8 GPUs per task (the largest node has 8), was 9",
                refused(r, "m2", null, 9).rejection().reason(), "a task larger than every node could never be placed");
        assertEquals(0, r.requested("m2", null, 0, null).perTask().gpuMilli(), "no bounds but the contract's: 0 is in");

        SubmissionLimits.Refused neither = refused(r, "m2", null, null);
        assertEquals(400, neither.status());
        assertEquals("body", neither.rejection().field());
        assertEquals(400, refused(r, "m2", 5000, 1).status(), "the batch is checked as before");
        assertEquals("batchSize", refused(r, "m2", 5000, 2).rejection().field());
    }

    @Test
    void aReTuneThatChangesNothingIsAConflictOnTheBody() {
        LiveRetunes r = retunes();
        r.tuned(queued("n1", 1, 2000), new TuningOptions(true, 8, 64, null));
        for (Integer[] same : new Integer[][] {{16, 2}, {null, 2}, {16, null}}) {
            SubmissionLimits.Refused nothing = refused(r, "n1", same[0], same[1]);
            assertEquals(409, nothing.status());
            assertEquals("body", nothing.rejection().field());
            assertEquals("changes nothing: revision 0 already has batch size 16 and 2 GPUs per task",
                    nothing.rejection().reason());
        }
        assertEquals(404, refused(r, "unknown", null, 2).status());
        r.tuned(queued("off", 1, 1000), new TuningOptions(false, null, null, null));
        assertEquals(409, refused(r, "off", null, 2).status());
        assertEquals("jobId", refused(r, "off", null, 2).rejection().field());
    }
}
