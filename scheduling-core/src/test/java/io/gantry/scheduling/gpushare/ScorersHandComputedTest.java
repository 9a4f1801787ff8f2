package io.gantry.scheduling.gpushare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Each scorer of the FGD study on a two-node cluster, against values worked out by hand from its definition: node A
 * has 64 vCPUs and 2 T4 cards, node B 96 vCPUs and 8 G2 cards; the pod asks 8 vCPUs and half a GPU.
 */
class ScorersHandComputedTest {

    private static final GpuNode A = new GpuNode("a", 64_000, 262_144, 2, "T4");
    private static final GpuNode B = new GpuNode("b", 96_000, 393_216, 8, "G2");
    private static final GpuPod HALF = pod("half", 8_000, 1, 500);

    static GpuPod pod(String name, int cpu, int gpus, int milli) {
        return new GpuPod(name, new PodShape(cpu, gpus, milli, ""), 1024);
    }

    /** A and B, nothing placed yet; a new one for each test, as JUnit makes a new instance per test. */
    private final DeviceCluster c = new DeviceCluster(List.of(A, B));

    /** What {@code scorer} gives HALF on A and on B of the idle cluster. */
    private long[] idleScores(GpuScorer scorer) {
        return new long[] {scorer.score(c, 0, HALF), scorer.score(c, 1, HALF)};
    }

    @Test
    void bestFitScoresWhatWouldBeLeftThenRescalesToZeroToHundred() {
        BestFitScorer s = new BestFitScorer();
        // A: 0.5·56000/128000 + 0.5·1500/8000 = 0.3125 → ⌊68.75⌋; B: 0.5·88000/128000 + 0.5·7500/8000 = 0.8125 → ⌊18.75⌋.
        long[] scores = idleScores(s);
        assertArrayEquals(new long[] {68, 18}, scores);
        s.normalize(scores, 2);
        assertArrayEquals(new long[] {100, 0}, scores);
    }

    @Test
    void dotProductPrefersTheNodeWhoseFreeResourcesAlignLeastWithTheRequest() {
        // A: (0.5·0.0625 + 0.25·0.0625)/2 = 0.0234375 → ⌊97.66⌋; B: (0.75·0.0625 + 1·0.0625)/2 = 0.0546875 → ⌊94.53⌋.
        assertArrayEquals(new long[] {97, 94}, idleScores(new DotProductScorer()));
    }

    @Test
    void gpuClusteringKeepsPodsOfOneKindTogether() {
        GpuClusteringScorer s = new GpuClusteringScorer();
        // Empty A: ⌊25·(8000 − 2000)/8000⌋ + 25 = 18 + 25.
        assertEquals(43, s.score(c, 0, HALF));
        c.place(0, HALF, new int[] {0});
        // A holds one sharing pod: ⌊25·6500/8000⌋ + 75 for another sharing pod, + 0 for a whole-GPU pod (other kind only).
        assertEquals(95, s.score(c, 0, HALF));
        assertEquals(20, s.score(c, 0, pod("one", 4_000, 1, 1000)));
        c.place(0, pod("one", 4_000, 1, 1000), new int[] {1});
        // Both kinds on A now (500 milli free): a sharing pod gets 50 + ⌊25·7500/8000⌋; CPU-only pods score 0.
        assertEquals(73, s.score(c, 0, pod("share2", 1_000, 1, 300)));
        assertEquals(0, s.score(c, 1, pod("cpu", 1_000, 0, 0)));
    }

    @Test
    void gpuPackingPrefersSharedDevicesThenUsedNodesThenIdleNodes() {
        GpuPackingScorer s = new GpuPackingScorer();
        // Idle nodes: max(33 − GPUs, GPUs).
        assertArrayEquals(new long[] {31, 25}, idleScores(s));
        c.place(0, HALF, new int[] {0});
        // A device 0 has 500 free: a 300-milli pod shares it: 100 − ⌊(500·100/1000)/10⌋ = 95.
        assertEquals(95, s.score(c, 0, pod("small", 1_000, 1, 300)));
        // A whole GPU must take the idle device 1 of a used node: max(50 − 1, 33).
        assertEquals(49, s.score(c, 0, pod("one", 1_000, 1, 1000)));
    }

    @Test
    void fgdTakesTheDeviceAndNodeWhereExpectedFragmentationGrowsLeast() {
        // Target workload: half the pods ask 1 vCPU and half a GPU, half are CPU-only (2 vCPUs).
        TargetWorkload w = new TargetWorkload(List.of(new TargetWorkload.Share(new PodShape(1_000, 1, 500, ""), 0.5),
                new TargetWorkload.Share(new PodShape(2_000, 0, 0, ""), 0.5)));
        GpuNode n = new GpuNode("n", 10_000, 65_536, 2, "T4");
        DeviceCluster single = new DeviceCluster(List.of(n));
        single.place(0, pod("used", 0, 1, 400), new int[] {1});
        GpuPod p = pod("p", 1_000, 1, 500);
        // Before, devices [1000, 600]: CPU-only shape 0.5·1600; the half-GPU shape fits both devices: 0 → F = 800.
        // On device 0 → [500, 600]: 0.5·1100 + 0 = 550, Δ = 250 → ⌊100·σ(0.25)⌋ = 56.
        // On device 1 → [1000, 100]: 0.5·1100 + 0.5·100 = 600, Δ = 200 → ⌊100·σ(0.2)⌋ = 54. Device 0 wins.
        FgdScorer s = FgdScorer.paper(w);
        assertEquals(56, s.score(single, 0, p));
        assertArrayEquals(new int[] {0}, s.devices(single, 0, p));
        // A whole GPU takes the idle device 0 → [0, 600]: CPU-only 0.5·600, half GPU fits device 1: 0 → F = 300;
        // Δ = 500 → ⌊100·σ(0.5)⌋ = 62.
        assertEquals(62, s.score(single, 0, pod("whole", 1_000, 1, 1000)));
    }

    @Test
    void randomPicksEachAdmittingNodeAboutEquallyOften() {
        int[] hits = new int[3];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 3000; i++) {
            DeviceCluster three = new DeviceCluster(List.of(A, B, new GpuNode("c", 8_000, 65_536, 1, "T4")));
            ScoringPlacer placer = new ScoringPlacer(three, new RandomScorer(rnd), rnd);
            hits[placer.place(HALF).node()]++;
        }
        for (int h : hits) {
            assertTrue(h > 900 && h < 1100, "each of 3 nodes should get about 1000 of 3000: " + java.util.Arrays.toString(hits));
        }
    }
}
