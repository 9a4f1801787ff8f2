package io.gantry.scheduling.pollux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.tuning.GoodputModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The power-mean fitness on a 2-node × 4-GPU cluster (shareScale = nodes ÷ GPUs = 0.25), worked by hand. */
class PolluxFitnessTest {

    private final GoodputOptimizer cifar = new GoodputOptimizer(
            GoodputModel.load(SharedTraces.tracesDir().resolve("philly-pollux/app-profiles/cifar10")));

    /** A job whose speedup is exactly 1 on 4 GPUs of one node (its base goodput is that allocation's). */
    private PolluxFitness.JobView job(String id, int[] current, double restartFactor) {
        return new PolluxFitness.JobView(id, cifar, 0, cifar.best(1, 4, 0).goodput(), restartFactor, current, 8, false);
    }

    @Test
    void powerMeanWithPMinusOneOfTheScaledSpeedups() {
        PolluxFitness f = new PolluxFitness(List.of(job("a", new int[] {4, 0}, 1), job("b", new int[] {0, 0}, 1)), 2, 8, -1);
        int[][] state = {{4, 0}, {0, 0}};
        assertArrayEquals(new double[] {0.25, 0}, f.scaledSpeedups(state), 1e-12);
        // ((1/(0.25 + 0.001) + 1/0.001) / 2)^-1
        double expected = 1 / ((1 / 0.251 + 1 / 0.001) / 2);
        assertEquals(expected, f.evaluate(state), 1e-12);
        // giving b the idle node is fairer and better: both 0.25
        assertEquals(0.251, f.evaluate(new int[][] {{4, 0}, {0, 4}}), 1e-12); // (2 / 0.251 / 2)^-1
        assertTrue(f.evaluate(new int[][] {{4, 0}, {0, 4}}) > f.evaluate(new int[][] {{4, 4}, {0, 0}}),
                "p = -1 prefers two jobs at speedup 1 to one job at speedup < 2 and one starved");
    }

    @Test
    void aChangedAllocationIsDiscountedByTheRestartFactor() {
        double factor = PolluxFitness.restartFactor(300, 1);
        assertEquals((300 - 30) / 330.0, factor, 1e-12);
        assertEquals(0, PolluxFitness.restartFactor(50, 2), "a job that spent its whole age restarting gains nothing from a change");
        PolluxFitness f = new PolluxFitness(List.of(job("a", new int[] {0, 4}, factor)), 2, 8, -1);
        assertArrayEquals(new double[] {0.25 * factor}, f.scaledSpeedups(new int[][] {{4, 0}}), 1e-12);
        assertArrayEquals(new double[] {0.25}, f.scaledSpeedups(new int[][] {{0, 4}}), 1e-12);
    }

    @Test
    void pZeroIsTheGeometricMean() {
        PolluxFitness f = new PolluxFitness(List.of(job("a", new int[] {4, 0}, 1), job("b", new int[] {0, 4}, 1)), 2, 8, 0);
        assertEquals(0.25, f.evaluate(new int[][] {{4, 0}, {0, 4}}), 1e-12);
    }

    @Test
    void theFairShareBaseIsCeilOfGpusOverJobsOnOneNode() {
        // 8 GPUs, 3 jobs: ceil(8/3) = 3 GPUs on ceil(2/8) = 1 node
        assertEquals(cifar.best(1, 3, 5).goodput(), PolluxFitness.fairGoodput(cifar, 5, 3, 2, 8), 1e-15);
    }
}
