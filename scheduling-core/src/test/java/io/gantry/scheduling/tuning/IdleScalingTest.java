package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.sim.SpareGpus;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The idle-GPU share on jobs whose time to finish falls as {@code scale} s ÷ n^0.8 on n GPUs (up to 16, the most
 * GPUs their "profile" measured, unless a test says otherwise).
 */
class IdleScalingTest {

    private static IntToDoubleFunction left(double scale) {
        return n -> n >= 1 && n <= 16 ? scale / Math.pow(n, 0.8) : Double.NaN;
    }

    private static IdleScaling.Ask ask(double scale, int rule, int current, double restartS) {
        return new IdleScaling.Ask(left(scale), rule, rule, current, restartS, 16);
    }

    @Test
    void aJobGrowsIntoIdleGpusAsFarAsTheyAreFreeAndItsDataGoes() {
        assertArrayEquals(new int[] {6}, IdleScaling.share(List.of(ask(1000, 2, 2, 10)), 4), "2 + the 4 free");
        assertArrayEquals(new int[] {16}, IdleScaling.share(List.of(ask(1000, 2, 2, 10)), 40),
                "no further than the 16 GPUs its profile measured");
        assertArrayEquals(new int[] {2}, IdleScaling.share(List.of(ask(1000, 2, 2, 10)), 0));
    }

    @Test
    void aGrowMustPayForItsRestart() {
        // From 2 GPUs (574 s left) the fastest count is 16 (109 s): worth it at a 300 s restart, not at 500 s.
        assertArrayEquals(new int[] {16}, IdleScaling.share(List.of(ask(1000, 2, 2, 300)), 14));
        assertArrayEquals(new int[] {2}, IdleScaling.share(List.of(ask(1000, 2, 2, 500)), 14));
    }

    @Test
    void aJobKeepsTheIdleGpusItHoldsWhileNobodyElseDoesBetterWithThem() {
        assertArrayEquals(new int[] {12}, IdleScaling.share(List.of(ask(10_000, 2, 12, 10)), 0),
                "its 10 idle GPUs go back into the pool, and back to it: nobody else asks");
    }

    /**
     * A long job holds 10 idle GPUs; a short one (a tenth of its training left) on its rule's 2 would gain from
     * them. Both scale alike, so a GPU-second buys the same share of either's time, but seconds saved per
     * GPU-second are ten times more on the short job: it gets GPUs from the long one, which pays a restart for it.
     */
    @Test
    void idleGpusGoWhereASecondSavedCostsFewestGpuSeconds() {
        IdleScaling.Ask longJob = ask(10_000, 2, 12, 10);
        IdleScaling.Ask shortJob = ask(1000, 2, 2, 10);
        int[] want = IdleScaling.share(List.of(longJob, shortJob), 0);
        assertTrue(want[1] > 2, "the short job grows: " + want[1]);
        assertTrue(want[0] < 12, "the long job gives GPUs back: " + want[0]);
        assertEquals(14, want[0] + want[1], "no GPU is left idle");
    }

    @Test
    void aJobTheRuleCannotSizeIsLeftAsTheRuleSays() {
        assertArrayEquals(new int[] {3}, IdleScaling.share(List.of(new IdleScaling.Ask(left(1000), 0, 3, 3, 10, 16)), 8));
    }

    @Test
    void jobsHoldingIdleGpusGiveThemBackLeastLossPerGpuSecondFirst() {
        IdleScaling.Ask ruleOnly = ask(1000, 4, 4, 10);
        IdleScaling.Ask longJob = ask(10_000, 2, 12, 10);
        IdleScaling.Ask shortJob = ask(1000, 2, 12, 10);
        List<SpareGpus.GiveBack> order = IdleScaling.giveBackOrder(List.of(ruleOnly, longJob, shortJob));
        assertEquals(List.of(new SpareGpus.GiveBack(1, 2), new SpareGpus.GiveBack(2, 2)), order,
                "the job at its rule count gives nothing; the long job's GPUs buy it least per GPU-second");
    }

    @Test
    void aJobArrivingAtFreeGpusStartsWithTheFastestCountThatFits() {
        assertEquals(16, IdleScaling.atArrival(left(1000), 2, 16, n -> true));
        assertEquals(5, IdleScaling.atArrival(left(1000), 2, 16, n -> n <= 5));
        assertEquals(2, IdleScaling.atArrival(left(1000), 2, 16, n -> false));
    }
}
