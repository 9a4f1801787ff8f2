package io.gantry.scheduling.gpushare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The arrival sequence and the recorded curve of the FGD protocol. */
class FragProtocolTest {

    private static final List<GpuNode> NODES = List.of(new GpuNode("a", 32_000, 131_072, 4, "T4"),
            new GpuNode("b", 32_000, 131_072, 4, "T4"));
    private static final List<GpuPod> PODS = List.of(ScorersHandComputedTest.pod("p0", 2_000, 1, 1000),
            ScorersHandComputedTest.pod("p1", 2_000, 1, 500), ScorersHandComputedTest.pod("p2", 2_000, 2, 1000),
            ScorersHandComputedTest.pod("p3", 1_000, 0, 0));

    private static FragProtocol protocol() {
        return new FragProtocol(NODES, PODS, TargetWorkload.typicalPods(PODS, 1.0), 1.3);
    }

    @Test
    void arrivalsAreTheListShuffledThenToppedUpUntilTheNextPodWouldPass130Percent() {
        List<GpuPod> a = protocol().arrivals(1);
        long requested = a.stream().mapToLong(p -> p.shape().totalGpuMilli()).sum();
        assertTrue(requested <= 1.3 * 8000, "requested " + requested);
        // The list asks 3500 of 8000; the top-up draws real pods of the list again until the next would pass 10400.
        assertTrue(requested > 10_400 - 2000, "requested " + requested);
        List<String> firstFour = new ArrayList<>();
        a.subList(0, 4).forEach(p -> firstFour.add(p.name()));
        assertEquals(4, firstFour.stream().distinct().count());
        assertTrue(a.stream().skip(4).allMatch(p -> p.name().contains("-tuned-")));
        assertEquals(a, protocol().arrivals(1));
        assertNotEquals(a, protocol().arrivals(2));
    }

    @Test
    void theCurveRecordsTheAllocationAtEveryPercentAndTheSameSeedGivesTheSameCurve() {
        FragCurve c = protocol().run(new BestFitScorer(), 3, null, null);
        assertEquals(130, c.maxPercent());
        assertEquals(0.0, c.allocAt(0));
        for (int k = 1; k <= 130; k++) {
            assertTrue(c.allocAt(k) >= c.allocAt(k - 1), "pods never leave: allocation never falls");
            // A point is taken when arrivals first reach it; one pod here is up to 25% of the cluster.
            assertTrue(c.allocAt(k) <= k + 25 + 1e-9, "no more can be allocated than has arrived");
        }
        assertTrue(c.allocAt(130) > 80, "8 GPUs fill up: " + c.allocAt(130));
        assertArrayEquals(c.allocPct(), protocol().run(new BestFitScorer(), 3, null, null).allocPct());
    }
}
