package io.gantry.scheduling.pollux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.tuning.ConvergenceModel;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The metric a {@code pollux} job is credited with is measured, by the rule adaptive Gantry jobs are credited by:
 * the worst, over the batches it trained at, of what a whole run at that batch reaches in the measured curves.
 */
class PolluxJobModelTest {

    private final PolluxJobModel model = new PolluxJobModel(SharedTraces.tracesDir().resolve("philly-pollux/app-profiles"));
    private final JobRequest yolo = new JobRequest("yolov3-1", "yolov3", 1, Resources.ofGpus(1, 16, 64), 0, 0, Double.NaN, 1);

    private static List<String> gpus(int nodes, int perNode) {
        List<String> out = new java.util.ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            out.addAll(Collections.nCopies(perNode, "n" + n));
        }
        return out;
    }

    @Test
    void aJobIsCreditedWithTheWorstBatchItTrainedAt() {
        ConvergenceModel curves = model.fitted("yolov3").model().convergence();
        int epochs = model.measured("yolov3").maxEpochs();
        assertTrue(Double.isNaN(model.finalMetric(yolo.id())), "nothing before it trained");

        double allOn16 = model.total(yolo);
        model.trained(yolo, gpus(4, 4), 0, allOn16);
        double wide = model.finalMetric(yolo.id());
        double worst = Double.NaN;
        for (int e = 0; e < epochs; e++) {
            double m = curves.bestMetric(model.fitted("yolov3").best(4, 16, e).batch(), epochs);
            worst = Double.isNaN(worst) || !curves.reaches(m, worst) ? m : worst;
        }
        assertEquals(worst, wide, 1e-12, "on 16 GPUs all along: the worst of the batches its epochs chose");

        JobRequest mixed = new JobRequest("yolov3-2", "yolov3", 1, Resources.ofGpus(1, 16, 64), 0, 0, Double.NaN, 1);
        double firstEpoch = model.measured("yolov3").progressAt(1);
        model.trained(mixed, gpus(1, 1), 0, firstEpoch);
        model.trained(mixed, gpus(4, 4), firstEpoch, model.total(mixed));
        int onOneGpu = model.fitted("yolov3").best(1, 1, 0).batch();
        assertEquals(8, onOneGpu, "on one GPU its first epoch trains at yolov3's smallest batch");
        assertEquals(curves.bestMetric(onOneGpu, epochs), model.finalMetric(mixed.id()), 1e-12,
                "one epoch at batch 8 makes it no better than a whole run at batch 8");
        double target = curves.bestMetric(64, epochs); // what the submitted yolov3 jobs (batch 64) reach
        assertFalse(curves.reaches(model.finalMetric(mixed.id()), target), "and that misses the batch-64 target");
    }
}
