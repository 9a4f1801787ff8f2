package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.tuning.ProfileMeasurements.EpochRow;
import io.gantry.scheduling.tuning.ProfileMeasurements.StepSample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TuningModelsTest {

    private static final Path PROFILES = SharedTraces.tracesDir().resolve("philly-pollux/app-profiles");
    private static final List<String> APPS = List.of("bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3");

    /** Every 5th measured row is held back; the model fitted on the rest must predict their step times. */
    @Test
    void throughputFitPredictsHeldBackRowsWithinFifteenPercentMeanError() {
        for (String app : APPS) {
            List<StepSample> rows = ProfileMeasurements.load(PROFILES.resolve(app)).steps();
            List<StepSample> train = new ArrayList<>();
            List<StepSample> held = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                (i % 5 == 4 ? held : train).add(rows.get(i));
            }
            double err = ThroughputModel.meanRelativeError(ThroughputModel.fit(train), held);
            System.out.printf("throughput %s: held-back mean relative error %.3f over %d rows%n", app, err, held.size());
            assertTrue(err < 0.15, app + " held-back step-time error " + err);
        }
    }

    /** Each interior validation run is left out; its measured progress per iteration is predicted from its neighbours. */
    @Test
    void efficiencyModelPredictsHeldBackValidationRunsWithinFivePercentMedianError() {
        for (String app : APPS) {
            TreeMap<Integer, List<EpochRow>> all = new TreeMap<>(ProfileMeasurements.load(PROFILES.resolve(app)).validation());
            List<Double> errors = new ArrayList<>();
            for (int batch : all.keySet()) {
                if (batch == all.firstKey() || batch == all.lastKey()) {
                    continue;
                }
                TreeMap<Integer, List<EpochRow>> rest = new TreeMap<>(all);
                List<EpochRow> held = rest.remove(batch);
                EfficiencyModel model = new EfficiencyModel(rest);
                for (int e = 1; e < held.size(); e++) {
                    double measured = (held.get(e).progress() - held.get(e - 1).progress())
                            / (held.get(e).iteration() - held.get(e - 1).iteration());
                    errors.add(Math.abs(model.gain(batch, e) - measured) / measured);
                }
            }
            errors.sort(null);
            double median = errors.get(errors.size() / 2);
            System.out.printf("efficiency %s: held-back median relative error of gain %.3f over %d epochs%n", app, median, errors.size());
            assertTrue(median < 0.05, app + " held-back gain error " + median);
        }
    }

    @Test
    void tunerNeverLeavesTheUsersBoundsAndRespectsDoNotTune() {
        TrainingTuner tuner = TrainingTuner.fromProfiles(PROFILES, TrainingTuner.Settings.DEFAULT);
        int[][] cases = {{8, 2048, 512, 1024, 4}, {4, 256, 128, 256, 2}, {16, 4096, 1024, 4096, 16}, {1, 128, 128, 128, 1}};
        for (int[] c : cases) {
            TrainingTuner.Result r = tuner.tune(new TrainingTuner.Request("cifar10", c[0], c[1], null,
                    new TrainingTuner.Bounds(true, c[2], c[3], c[4])));
            assertTrue(r.batchSize() >= c[2] && r.batchSize() <= c[3], "batch " + r.batchSize() + " outside " + c[2] + ".." + c[3]);
            assertTrue(r.gpus() >= 1 && r.gpus() <= c[4], "gpus " + r.gpus() + " above " + c[4]);
            assertTrue(tuner.models().get("cifar10").convergence().reaches(r.predictedMetric(), r.targetMetric()), r.summary());
        }
        TrainingTuner.Result off = tuner.tune(new TrainingTuner.Request("cifar10", 8, 2048, 100,
                new TrainingTuner.Bounds(false, null, null, null)));
        assertEquals(8, off.gpus());
        assertEquals(2048, off.batchSize());
        assertEquals(100, off.epochs());
        assertTrue(off.changes().isEmpty());
    }

    /** The poison job reached the tuner as Integer.MAX_VALUE GPUs: the cap is the profile's, not the user's. */
    @Test
    void hugeGpuCountsAndBoundsAreCappedByWhatTheProfileCanUse() {
        TrainingTuner tuner = TrainingTuner.fromProfiles(PROFILES, TrainingTuner.Settings.DEFAULT);
        for (String app : APPS) {
            GoodputModel m = tuner.models().get(app);
            for (int[] c : new int[][] {{Integer.MAX_VALUE, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 0}, {1, Integer.MAX_VALUE}}) {
                Integer maxGpus = c[1] == 0 ? null : c[1];
                TrainingTuner.Result r = tuner.tune(new TrainingTuner.Request(app, c[0], m.minBatch(), null,
                        new TrainingTuner.Bounds(true, null, Integer.MAX_VALUE, maxGpus)));
                assertTrue(r.gpus() >= 1 && (r.gpus() <= m.maxBatch() || r.gpus() == c[0]), app + ": " + r);
                assertTrue(r.changes().stream().allMatch(ch -> !ch.reason().isBlank()), app + ": " + r);
            }
        }
        assertTrue(!tuner.models().get("cifar10").feasible(200, 128), "never more GPUs than samples in the batch");
    }

    @Test
    void rightSizingStaysBetweenFloorAndRequest() {
        ResourceRightSizer sizer = new ResourceRightSizer(new ResourceRightSizer.Settings(0.9, 1.2, 500, 1024, 5));
        assertEquals(0, sizer.size("g", 8000, 16384).samples(), "no history, no change");
        for (int i = 0; i < 10; i++) {
            sizer.observe("g", 0.1, 0.05);
        }
        ResourceRightSizer.Sizing s = sizer.size("g", 8000, 16384);
        assertEquals(960, s.cpuMilli());
        assertEquals(1024, s.memoryMib(), "memory floor");
        assertEquals(300, sizer.size("g", 300, 512).cpuMilli(), "a request below the floor is left as it is");
    }
}
