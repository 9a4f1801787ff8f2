package io.gantry.scheduling.gpushare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** FGD's fragmentation measure and target workload on values worked out by hand. */
class FragmentationTest {

    private static final PodShape HALF = new PodShape(1_000, 1, 500, "");
    private static final PodShape WHOLE_BIG_CPU = new PodShape(8_000, 1, 1000, "");
    private static final PodShape CPU_ONLY = new PodShape(1_000, 0, 0, "");

    @Test
    void fragmentationOfANodeIsTheExpectedUnusableGpuMilli() {
        TargetWorkload w = new TargetWorkload(List.of(new TargetWorkload.Share(HALF, 0.5),
                new TargetWorkload.Share(WHOLE_BIG_CPU, 0.25), new TargetWorkload.Share(CPU_ONLY, 0.25)));
        // 4 vCPUs free, devices [1000, 300, 0] (1300 milli free):
        //   half GPU:  fits device 0; device 1's 300 < 500 is stranded → 0.5 · 300  = 150
        //   whole GPU with 8 vCPUs: lacks CPU, all 1300 is stranded   → 0.25 · 1300 = 325
        //   CPU-only: never uses a GPU, all 1300                      → 0.25 · 1300 = 325
        assertEquals(800.0, Fragmentation.ofNode(4_000, new int[] {1000, 300, 0}, "T4", w), 1e-9);
        // With 8 vCPUs free the whole-GPU shape fits device 0; device 1 is stranded for it: 150 + 75 + 325.
        assertEquals(550.0, Fragmentation.ofNode(8_000, new int[] {1000, 300, 0}, "T4", w), 1e-9);
        // A node with nothing free has no fragment.
        assertEquals(0.0, Fragmentation.ofNode(8_000, new int[] {0, 0}, "T4", w), 1e-9);
    }

    @Test
    void aShapeThatMayNotRunOnTheNodesModelStrandsAllOfIt() {
        TargetWorkload w = new TargetWorkload(List.of(new TargetWorkload.Share(new PodShape(1_000, 1, 500, "V100M32|A10"), 1)));
        assertEquals(1300.0, Fragmentation.ofNode(4_000, new int[] {1000, 300}, "T4", w), 1e-9);
        assertEquals(300.0, Fragmentation.ofNode(4_000, new int[] {1000, 300}, "A10", w), 1e-9);
    }

    @Test
    void typicalPodsKeepTheMostFrequentShapesUpToTheCoverageAndRenormalise() {
        // Counts 6, 3, 1: 90% coverage keeps the first two (6 < 9, 9 ≥ 9), renormalised to 6/9 and 3/9.
        TargetWorkload w = TargetWorkload.fromCounts(Map.of(HALF, 6.0, CPU_ONLY, 3.0, WHOLE_BIG_CPU, 1.0), 0.9);
        assertEquals(2, w.size());
        assertEquals(HALF, w.shares().get(0).shape());
        assertEquals(6.0 / 9, w.shares().get(0).popularity(), 1e-12);
        assertEquals(3.0 / 9, w.shares().get(1).popularity(), 1e-12);
        assertEquals(3, TargetWorkload.fromCounts(Map.of(HALF, 6.0, CPU_ONLY, 3.0, WHOLE_BIG_CPU, 1.0), 1.0).size());
    }
}
