package io.gantry.scheduling.pollux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.tuning.GoodputModel;
import io.gantry.scheduling.tuning.ThroughputModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Goodput and the batch-size choice for cifar10's fitted profile, checked against the formulas worked by hand. */
class GoodputOptimizerTest {

    private static final Path CIFAR = SharedTraces.tracesDir().resolve("philly-pollux/app-profiles/cifar10");
    private final GoodputModel model = GoodputModel.load(CIFAR);
    private final GoodputOptimizer optimizer = new GoodputOptimizer(model);

    @Test
    void oneGpuAtTheInitialBatchIsOneIterationPerStepTime() {
        // M = M0 = 128 on one GPU: gain 1 (s = 1), no sync, no accumulation, so goodput = 1 / (αc + βc·128).
        ThroughputModel t = model.throughput();
        assertEquals(128, model.minBatch());
        double expected = 1 / (t.computeAlpha() + t.computeBeta() * 128);
        assertEquals(expected, optimizer.goodput(1, 1, 128, 0), 1e-12 * expected);
    }

    @Test
    void fourGpusAtFourTimesTheBatchFollowTheNoiseScaleFormula() {
        // M = 512 on 4 GPUs of one node: 128 per GPU, T = ((αc+βc·128)^γ + (αr+βr·2)^γ)^(1/γ); s = 4;
        // gain = (var + sqr) / (var/4 + sqr) with the epoch-0 statistics interpolated at 512.
        ThroughputModel t = model.throughput();
        double compute = t.computeAlpha() + t.computeBeta() * 128;
        double sync = t.localSyncAlpha() + t.localSyncBeta() * 2;
        double step = Math.pow(Math.pow(compute, t.gamma()) + Math.pow(sync, t.gamma()), 1 / t.gamma());
        double[] g = model.efficiency().gradStats(512, 0);
        double gain = (g[1] + g[0]) / (g[1] / 4 + g[0]);
        assertEquals(gain / step, optimizer.goodput(1, 4, 512, 0), 1e-9 * gain / step);
        assertTrue(gain > 1 && gain < 4, "a 4x batch makes more than one and less than four iterations of progress");
    }

    @Test
    void theChosenBatchIsTheBestOfTheGridAndGrowsWithTheAllocation() {
        for (int replicas : new int[] {1, 2, 4, 8, 16}) {
            int nodes = (replicas + 3) / 4;
            GoodputOptimizer.Choice c = optimizer.best(nodes, replicas, 10);
            for (int i = 0; i <= GoodputOptimizer.GRID; i++) {
                int batch = (int) Math.round(model.minBatch() * Math.pow((double) model.maxBatch() / model.minBatch(), i / 64.0));
                if (batch >= replicas * model.minLocalBsz() || batch == model.minBatch()) {
                    assertTrue(c.goodput() >= optimizer.goodput(nodes, replicas, batch, 10) - 1e-12,
                            replicas + " GPUs: batch " + batch + " beats the choice " + c.batch());
                }
            }
            assertEquals(c.goodput(), optimizer.goodput(nodes, replicas, c.batch(), 10), 1e-12);
            assertTrue(c.lrScale() >= 1 - 1e-12, "AdaScale never shrinks the learning rate");
        }
        assertTrue(optimizer.best(4, 16, 10).batch() >= optimizer.best(1, 1, 10).batch(),
                "more GPUs never pick a smaller batch here");
    }

    @Test
    void noGpusMeanNoGoodput() {
        assertEquals(0, optimizer.best(0, 0, 0).goodput());
    }
}
