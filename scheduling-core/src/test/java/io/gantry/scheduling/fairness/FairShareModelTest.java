package io.gantry.scheduling.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FairShareModelTest {

    private static final double DAY = 86_400;

    @Test
    void usageHalvesEveryHalfLifeAndRunningJobsAccrue() {
        FairShareLedger l = new FairShareLedger(DAY);
        // 2 GPUs for 100 s: 2·∫_0^100 2^{-(100-x)/h} dx, slightly under 200 because the first seconds already decayed.
        double exact = 2 * DAY / Math.log(2) * (1 - Math.pow(2, -100 / DAY));
        l.charge("a", 2, 0, 100);
        assertEquals(exact, l.decayedUsage("a", 100), 1e-9 * exact);
        assertTrue(exact > 199.9 && exact < 200);
        assertEquals(exact / 2, l.decayedUsage("a", 100 + DAY), 1e-9 * exact, "halved after one half-life");
        l.startRunning("b", 4, 0);
        assertEquals(2 * exact, l.decayedUsage("b", 100), 1e-9 * exact, "a running job counts before it ends");
        l.stopRunning("b", 4, 0, 100);
        assertEquals(2 * exact, l.decayedUsage("b", 100), 1e-9 * exact);
        assertEquals(0, l.runningGpus("b"));
    }

    @Test
    void chargesInAnyOrderGiveTheSameUsageEvenAcrossRescaling() {
        FairShareLedger forward = new FairShareLedger(60);
        FairShareLedger backward = new FairShareLedger(60);
        // 600 half-lives apart: forces the ledger to move its reference time.
        double[][] intervals = {{0, 50}, {30_000, 30_100}, {36_000, 36_060}};
        for (double[] i : intervals) {
            forward.charge("u", 1, i[0], i[1]);
        }
        for (int k = intervals.length - 1; k >= 0; k--) {
            backward.charge("u", 1, intervals[k][0], intervals[k][1]);
        }
        double f = forward.decayedUsage("u", 36_060);
        assertEquals(f, backward.decayedUsage("u", 36_060), 1e-9 * f);
        // The last minute is one half-life long: (h/ln2)(1 - 1/2); the older minutes decayed 100+ half-lives.
        assertEquals(60 / Math.log(2) / 2, f, 1e-9 * f);
    }

    @Test
    void priorityIsBoundedAndMonotone() {
        DynamicPriority model = new DynamicPriority(100);
        double last = Double.POSITIVE_INFINITY;
        for (double usage = 0; usage <= 10_000; usage += 500) {
            FairShareLedger l = new FairShareLedger(DAY);
            l.charge("heavy", 1, 0, usage);
            l.charge("other", 1, 0, 1000);
            var a = model.assess(l, usage + 1000, Map.of("heavy", 5.0), Map.of(), 0, 1).get("heavy");
            assertTrue(a.priority() >= 5 && a.priority() <= 105, "bounded: " + a.priority());
            assertTrue(a.priority() <= last, "more usage never raises priority");
            last = a.priority();
        }
        FairShareLedger l = new FairShareLedger(DAY);
        l.charge("x", 1, 0, 1000);
        l.charge("y", 1, 0, 1000);
        var light = model.assess(l, 1000, Map.of(), Map.of("x", 1.0, "y", 1.0), 0, 1).get("x");
        var heavier = model.assess(l, 1000, Map.of(), Map.of("x", 3.0, "y", 1.0), 0, 1).get("x");
        assertEquals(50, light.priority(), 1e-9, "usage equal to entitlement gives half the fair-share weight");
        assertTrue(heavier.priority() > light.priority(), "a larger weight never lowers priority");
        assertEquals(100, model.assess(new FairShareLedger(DAY), 0, Map.of(), Map.of("idle", 1.0), 0, 1)
                .get("idle").priority(), 1e-12, "no usage anywhere: everyone gets the whole fair-share term");
    }

    @Test
    void jainIndexOfNormalisedService() {
        assertEquals(1, JainIndex.of(java.util.List.of(0.5, 0.5, 0.5)), 1e-12);
        assertEquals(0.5, JainIndex.of(java.util.List.of(1.0, 0.0)), 1e-12);
        TenantServiceMeter m = new TenantServiceMeter(10);
        m.arrived("a", 1);
        m.started("a", 1);  // a wants 1 GPU and has it
        m.arrived("b", 8);
        m.arrived("b", 8);
        m.started("b", 8);  // b wants 16, holds 8, and one gang waits
        m.advance(100);
        var t = m.totals();
        // Max-min fair shares of 10 GPUs: a is owed only what it asked for (1), b the remaining 9.
        assertEquals(100, t.get("a").entitledGpuS(), 1e-9);
        assertEquals(900, t.get("b").entitledGpuS(), 1e-9);
        assertEquals(1.0, t.get("a").normalisedService(), 1e-12);
        assertEquals(800.0 / 900, t.get("b").normalisedService(), 1e-12);
        double x = 800.0 / 900;
        assertEquals((1 + x) * (1 + x) / (2 * (1 + x * x)), TenantServiceMeter.jainIndex(t), 1e-12);
    }

    @Test
    void aGangIsCreditedForTheServiceItGetsOnceItRuns() {
        // Service is measured over the whole time a tenant has work in the system: a tenant whose only job is a gang
        // that waits 10 s and then runs 90 s got 90 % of its share, not nothing.
        TenantServiceMeter m = new TenantServiceMeter(16);
        m.arrived("busy", 8);
        m.started("busy", 8);
        m.arrived("gang", 16);  // the gang needs the whole cluster: owed 8 while busy holds 8, 16 once busy is done
        m.advance(10);
        m.finished("busy", 8);
        m.started("gang", 16);
        m.advance(90);
        m.finished("gang", 16);
        m.advance(50);           // nobody has work: nothing is counted
        var gang = m.totals().get("gang");
        assertEquals(100, gang.backloggedS(), 1e-9);
        assertEquals(8 * 10 + 16 * 90, gang.entitledGpuS(), 1e-9);
        assertEquals(16.0 * 90 / (8 * 10 + 16 * 90), gang.normalisedService(), 1e-12);
        assertEquals(1.0, m.totals().get("busy").normalisedService(), 1e-12, "busy had all it asked for");
    }

    @Test
    void aPreemptedJobKeepsItsTenantBackloggedAndItsDemand() {
        TenantServiceMeter m = new TenantServiceMeter(8);
        m.arrived("p", 8);
        m.started("p", 8);
        m.advance(10);
        m.preempted("p", 8);
        m.advance(10);
        var p = m.totals().get("p");
        assertEquals(20, p.backloggedS(), 1e-9);
        assertEquals(80, p.allocatedGpuS(), 1e-9);
        assertEquals(0.5, p.normalisedService(), 1e-12);
    }

    @Test
    void theWhileWaitingWindowCountsOnlyTimeWithAJobInTheQueue() {
        TenantServiceMeter m = new TenantServiceMeter(8);
        m.arrived("a", 8);
        m.started("a", 8);
        m.arrived("b", 8);
        m.advance(100); // b waits while a holds every GPU: entitled to 4 (max-min between two demands of 8), given 0
        m.finished("a", 8);
        m.started("b", 8);
        m.advance(100); // b alone runs on all 8, its whole fair share
        m.finished("b", 8);
        Map<String, TenantServiceMeter.TenantService> t = m.totals();
        assertTrue(Double.isNaN(t.get("a").normalisedServiceWhileWaiting()), "a never waited");
        assertEquals(0.0, t.get("b").normalisedServiceWhileWaiting(), 1e-12);
        assertEquals(100.0, t.get("b").waitingS(), 1e-12);
        assertEquals(800.0 / 1200.0, t.get("b").normalisedService(), 1e-12); // 0·100 + 8·100 over 4·100 + 8·100
    }
}
