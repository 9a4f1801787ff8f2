package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Batch, learning rate and epochs chosen from measured runs; right-sizing from measured peaks. */
class RealTrainingTunerTest {

    private static int n;
    private static final String ACCURACY = "test_accuracy";

    /** A run of model m at batch b: {@code epochs} to the target (null: missed), {@code spe} s per epoch. */
    private static RunnerProfile.Run run(int b, double lr, Integer epochs, double spe) {
        int ran = epochs == null ? 30 : epochs;
        return new RunnerProfile.Run("r" + (n++), "m", "iris", "sgd", ACCURACY, 0.9, b, lr, ran, epochs, ran * spe,
                1000.0 / spe, 300L << 20, ran * spe * 1.1);
    }

    private static final RealTrainingTuner TUNER = new RealTrainingTuner(RealTrainingTuner.Settings.DEFAULT);
    private static final RealTrainingTuner.Spec SPEC = new RealTrainingTuner.Spec("m", "sgd", 0.01, 16, 40, ACCURACY,
            0.9);
    private static final RealTrainingTuner.Bounds ANY = new RealTrainingTuner.Bounds(true, null, null);

    @Test
    void picksTheBatchMeasuredFastestToTheTargetWithTheLinearlyScaledRateAndABudgetAboveItsEpochs() {
        List<RunnerProfile.Run> runs = List.of(run(16, 0.01, 10, 2.0), run(64, 0.04, 12, 0.6), run(64, 0.04, 14, 0.5),
                run(256, 0.16, null, 0.2), run(128, 0.01, 5, 0.3)); // 128 at an unscaled rate: not comparable
        RealTrainingTuner.Result r = TUNER.tune(SPEC, ANY, runs);
        assertEquals(64, r.batchSize());
        assertEquals(0.04, r.learningRate(), 1e-12);
        assertEquals(40, r.epochs(), "the user's 40 already cover 1.5 × 14");
        assertEquals(14 * 0.5, r.predictedSeconds(), 1e-9, "most epochs to target × median (nearest rank) seconds per epoch");
        assertEquals(20.0, r.submittedSeconds(), 1e-9);
        assertEquals(List.of("training.batchSize", "training.learningRate"),
                r.changes().stream().map(TuningChange::field).toList());
        assertTrue(r.summary().contains("tuned"), r.summary());
    }

    @Test
    void boundsTargetsAndTooSmallGainsKeepTheSubmission() {
        List<RunnerProfile.Run> runs = List.of(run(16, 0.01, 10, 2.0), run(64, 0.04, 12, 0.6));
        assertFalse(TUNER.tune(SPEC, new RealTrainingTuner.Bounds(true, null, 32), runs).changed());
        assertFalse(TUNER.tune(SPEC, new RealTrainingTuner.Bounds(false, null, null), runs).changed());
        RealTrainingTuner.Result noTarget = TUNER.tune(new RealTrainingTuner.Spec("m", "sgd", 0.01, 16, 40, null, null), ANY,
                runs);
        assertFalse(noTarget.changed());
        assertTrue(noTarget.summary().contains("no target"), noTarget.summary());
        assertFalse(TUNER.tune(SPEC, ANY, List.of(run(16, 0.01, 10, 2.0), run(64, 0.04, 10, 1.9))).changed());
        assertFalse(TUNER.tune(SPEC, ANY, List.of()).changed());
    }

    @Test
    void adamScalesByTheSquareRootAndTheEpochBudgetRisesToTheMargin() {
        List<RunnerProfile.Run> runs = List.of(new RunnerProfile.Run("a", "m", "iris", "adam", ACCURACY, 0.9, 64, 0.002, 40,
                40, 8.0, 5000, 1L << 28, 9.0));
        RealTrainingTuner.Result r = TUNER.tune(new RealTrainingTuner.Spec("m", "adam", 0.001, 16, 20, ACCURACY, 0.9), ANY,
                runs);
        assertEquals(64, r.batchSize());
        assertEquals(0.002, r.learningRate(), 1e-12);
        assertEquals(60, r.epochs());
    }

    @Test
    void rightSizingFollowsTheMeasuredPeaksNeverBelowTheLargest() {
        UsageRightSizer sizer = new UsageRightSizer(UsageRightSizer.Settings.DEFAULT);
        long mib = 1L << 20;
        List<RunnerProfile.Run> two = List.of(run(16, 0.01, 10, 2.0), run(16, 0.01, 10, 2.0));
        assertEquals(0, sizer.size(two, 4000, 8192).runs());
        List<RunnerProfile.Run> five = new java.util.ArrayList<>();
        long[] peaks = {300, 320, 310, 450, 305};
        for (long p : peaks) {
            five.add(new RunnerProfile.Run("p" + p, "m", "iris", "sgd", ACCURACY, 0.9, 16, 0.01, 10, 10, 20.0, 100,
                    p * mib, 24.0));
        }
        UsageRightSizer.Sizing s = sizer.size(five, 4000, 8192);
        assertEquals(5, s.runs());
        assertTrue(s.memoryMib() >= 450 && s.memoryMib() <= 1.5 * 450, s.toString());
        assertEquals(1440, s.cpuMilli(), "1.2 cores used × 1.2");
    }

    @Test
    void aProfileCsvRoundTripsAndARunIsKeptOnce() throws Exception {
        Path f = Files.createTempFile("profile", ".csv");
        List<RunnerProfile.Run> runs = List.of(run(16, 0.01, 10, 2.0), run(64, 0.04, null, 0.5));
        RunnerProfile.writeCsv(f, List.of("measured by a test"), runs);
        assertEquals(runs, RunnerProfile.readCsv(f));
        RunnerProfile p = new RunnerProfile();
        assertTrue(p.add(runs.get(0)));
        assertFalse(p.add(runs.get(0)));
        assertEquals(1, p.runs("m").size());
    }

    /** A run to another target, with another optimiser or with either unknown says nothing of epochs to this one. */
    @Test
    void onlyRunsWithTheSameOptimizerAndTargetCountForEpochsToTheTarget() {
        // At batch 64, a run to 0.97 needed 40 epochs: counted for a 0.9 target, 64 would look slower than 16.
        RunnerProfile.Run harder = new RunnerProfile.Run("hard", "m", "iris", "sgd", ACCURACY, 0.97, 64, 0.04, 40, 40,
                24.0, 1000.0 / 0.6, 300L << 20, 26.0);
        List<RunnerProfile.Run> runs = List.of(run(16, 0.01, 10, 2.0), run(64, 0.04, 14, 0.6), harder);
        RealTrainingTuner.Result r = TUNER.tune(SPEC, ANY, runs);
        assertEquals(64, r.batchSize(), r.summary());
        assertEquals(14 * 0.6, r.predictedSeconds(), 1e-9, "the 0.97 run's 40 epochs do not count for 0.9");

        // At batch 64, a run to 0.8 met it in 2 epochs: it must not make 64 a measured candidate for 0.9.
        RunnerProfile.Run easier = new RunnerProfile.Run("easy", "m", "iris", "sgd", ACCURACY, 0.8, 64, 0.04, 2, 2, 1.2,
                1000.0 / 0.6, 300L << 20, 1.3);

        // Only runs to another target (or with another or an unknown optimiser or target) at 64: not measured there.
        List<RunnerProfile.Run> elsewhere = List.of(run(16, 0.01, 10, 2.0), easier,
                new RunnerProfile.Run("val", "m", "iris", "sgd", "validation_accuracy", 0.9, 64, 0.04, 3, 3, 1.8, 1600,
                        1L << 28, 2.0),
                new RunnerProfile.Run("adam", "m", "iris", "adam", ACCURACY, 0.9, 64, 0.04, 3, 3, 1.8, 1600, 1L << 28, 2.0),
                new RunnerProfile.Run("old", "m", "iris", "sgd", "", null, 64, 0.04, 3, 3, 1.8, 1600, 1L << 28, 2.0),
                new RunnerProfile.Run("anon", "m", "iris", "", ACCURACY, 0.9, 64, 0.04, 3, 3, 1.8, 1600, 1L << 28, 2.0));
        RealTrainingTuner.Result kept = TUNER.tune(SPEC, ANY, elsewhere);
        assertFalse(kept.changed(), kept.summary());
        assertEquals(20.0, kept.submittedSeconds(), 1e-9, "batch 16's own run to 0.9 still counts");
    }

    @Test
    void aProfileWrittenBeforeTheTargetColumnsIsReadWithTargetsUnknown() throws Exception {
        Path f = Files.createTempFile("old-profile", ".csv");
        Files.writeString(f, RunnerProfile.CSV_HEADER_WITHOUT_TARGET + "\n"
                + "p1,m,iris,sgd,16,0.01,10,10,20.0,500.0,314572800,22.0\n");
        RunnerProfile.Run old = RunnerProfile.readCsv(f).get(0);
        assertEquals("sgd", old.optimizer());
        assertEquals("", old.targetMetric());
        assertEquals(null, old.targetValue());
        assertEquals(16, old.batchSize());
        assertEquals(300L << 20, old.peakRssBytes());
        assertFalse(old.trainedLike("sgd", ACCURACY, 0.9));
    }
}
