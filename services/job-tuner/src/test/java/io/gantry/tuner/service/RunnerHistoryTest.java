package io.gantry.tuner.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobResult;
import io.gantry.events.JobTuned;
import io.gantry.events.ModelGraph;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.scheduling.tuning.RunnerProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each measured run is filed under the optimiser and target it trained to, from its result or else its JobTuned. */
class RunnerHistoryTest {

    private static final TrainingTarget TO_90 = new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.9);
    static final TrainingSpec SPEC = new TrainingSpec(new ModelGraph(List.of(
            new ModelGraph.Layer("in", "Input", Map.of()), new ModelGraph.Layer("fc1", "Linear", Map.of("units", 8)),
            new ModelGraph.Layer("out", "Output", Map.of())),
            List.of(new ModelGraph.Edge("in", "fc1"), new ModelGraph.Edge("fc1", "out"))), "iris", "adam", 0.01, 16, 50,
            3L, TO_90);

    private static RunnerHistory empty() throws Exception {
        Path none = Files.createTempFile("no-profile", ".csv");
        Files.writeString(none, RunnerProfile.CSV_HEADER + "\n");
        return new RunnerHistory(none);
    }

    private static JobResult result(String jobId, String optimizer, TrainingTarget target) {
        return new JobResult(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, "ada", 1, 0.93, 0.2,
                new int[][]{{10, 0}, {1, 9}}, 6, 6, 300L << 20, 4.0, 5.0, 900.0, SPEC.modelKey(), 16, 0.01, optimizer,
                target);
    }

    @Test
    void aResultNamingItsOptimizerAndTargetIsFiledUnderThemWithoutItsJobTuned() throws Exception {
        RunnerHistory h = empty();
        TrainingTarget to80 = new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.8);
        assertTrue(h.result(result("easy-1", "sgd", to80)));
        RunnerProfile.Run run = h.profile().runs(SPEC.modelKey()).get(0);
        assertEquals("sgd", run.optimizer());
        assertEquals(TrainingTarget.TEST_ACCURACY, run.targetMetric());
        assertEquals(0.8, run.targetValue());
        assertTrue(run.trainedLike("sgd", TrainingTarget.TEST_ACCURACY, 0.8));
        assertFalse(run.trainedLike("sgd", TrainingTarget.TEST_ACCURACY, 0.9), "epochs to 0.8 are not epochs to 0.9");
        assertFalse(run.trainedLike("adam", TrainingTarget.TEST_ACCURACY, 0.8));
    }

    @Test
    void anOlderResultTakesOptimizerAndTargetFromItsJobTunedElseTheyAreUnknown() throws Exception {
        RunnerHistory h = empty();
        h.tuned(new JobTuned(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), "old-1", "ada", "old-1", null,
                Instant.now(), 1, new ResourceAmounts(0, 1000, 768), null, null, null, null, List.of(), "unchanged",
                true, SPEC));
        assertTrue(h.result(result("old-1", null, null)));
        assertTrue(h.result(result("old-2", null, null)));
        List<RunnerProfile.Run> runs = h.profile().runs(SPEC.modelKey());
        RunnerProfile.Run known = runs.stream().filter(r -> r.id().startsWith("old-1")).findFirst().orElseThrow();
        assertEquals(SPEC.optimizer(), known.optimizer());
        assertEquals(SPEC.target().value(), known.targetValue());
        assertEquals("iris", known.dataset());
        RunnerProfile.Run unknown = runs.stream().filter(r -> r.id().startsWith("old-2")).findFirst().orElseThrow();
        assertEquals("", unknown.optimizer());
        assertNull(unknown.targetValue());
        assertFalse(unknown.trainedLike(SPEC.optimizer(), TO_90.metric(), TO_90.value()));
        assertEquals(300L << 20, unknown.peakRssBytes(), "still measured for right-sizing");
    }
}
