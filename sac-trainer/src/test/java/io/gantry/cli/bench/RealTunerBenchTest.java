package io.gantry.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ResourceAmounts;
import io.gantry.scheduling.tuning.RealTrainingTuner;
import io.gantry.scheduling.tuning.RunnerProfile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The bench jobs are valid submissions, and the job tuner's shipped profile was measured on exactly these models
 * (re-run {@code ./gantry bench tuner-profile} after changing them): every model has its five batch sizes, each run
 * reached its target, and the tuner picks a batch from it for each bench job.
 */
class RealTunerBenchTest {

    private static final Path PROFILE = Path.of("../services/job-tuner/src/main/resources/runner-profile.csv");

    @Test
    void theBenchJobsAreValidAndTheShippedProfileMeasuredEachOfThem() {
        List<RunnerProfile.Run> runs = RunnerProfile.readCsv(PROFILE);
        RealTrainingTuner tuner = new RealTrainingTuner(RealTrainingTuner.Settings.DEFAULT);
        for (RealTunerBench.Case c : RealTunerBench.cases()) {
            JobSubmitted job = new JobSubmitted(Events.newId(), 1, Instant.now(), "bench-" + c.dataset(), "bench",
                    null, null, 1, new ResourceAmounts(0, 1000, 1024), null, null, null, null, true, c.user());
            assertEquals(job, EventCodec.decode(EventCodec.encode(job), JobSubmitted.class), "a valid submission");
            String key = c.user().modelKey();
            List<RunnerProfile.Run> mine = runs.stream().filter(r -> r.modelKey().equals(key)).toList();
            Set<Integer> batches = mine.stream().map(RunnerProfile.Run::batchSize).collect(Collectors.toSet());
            int b = c.user().batchSize();
            assertEquals(Set.of(b, 2 * b, 4 * b, 8 * b, 16 * b), batches, c.dataset() + ": profile out of date");
            assertTrue(mine.stream().allMatch(r -> r.targetReachedEpoch() != null), c.dataset());
            assertTrue(mine.stream().allMatch(r -> r.trainedLike(c.user().optimizer(), c.user().target().metric(),
                    c.user().target().value())), c.dataset() + ": measured with the case's optimizer, to its target");
            RealTrainingTuner.Result r = tuner.tune(new RealTrainingTuner.Spec(key, c.user().optimizer(),
                    c.user().learningRate(), b, c.user().epochs(), c.user().target().metric(),
                    c.user().target().value()), new RealTrainingTuner.Bounds(true, null, null), mine);
            assertTrue(batches.contains(r.batchSize()), r.toString());
            assertTrue(r.changed(), c.dataset() + ": the profile's runs count for the case's own target: " + r.summary());
        }
    }
}
