package io.gantry.tuner.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TuningOptions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LiveRetunesTest {

    private static JobTuned queued(String jobId) {
        return new JobTuned(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, "ada", jobId, null,
                Instant.now(), 1, new ResourceAmounts(0, 1000, 768), null, null, null, null, List.of(), "unchanged",
                true, RunnerHistoryTest.SPEC);
    }

    private static int refusedStatus(LiveRetunes r, String jobId, int batch) {
        return assertThrows(JobSubmissions.Refused.class, () -> r.requested(jobId, batch, null)).refusal().status();
    }

    @Test
    void aReTuneRememberedAfterTheJobEndedDoesNotBringItBack() {
        LiveRetunes r = new LiveRetunes(new JobTuner(JobTunerBoundsTest.config(Optional.empty())));
        r.tuned(queued("j1"), new TuningOptions(true, 8, 64, null));
        JobTuned update = r.requested("j1", 32, "test");
        assertEquals(1, update.revision());
        assertEquals(32, update.training().batchSize());

        // The REST resource remembers an update once Kafka took it; the job's end may be read in between.
        r.ended("j1");
        r.tuned(update, null);
        assertEquals(404, refusedStatus(r, "j1", 16), "an ended job is re-tuned no more");

        // A job that has not ended is remembered as before, and its newest revision counts.
        r.tuned(queued("j2"), new TuningOptions(true, 8, 64, null));
        r.tuned(r.requested("j2", 32, null), null);
        assertEquals(409, refusedStatus(r, "j2", 32), "32 is j2's batch size already, from revision 1");
    }
}
