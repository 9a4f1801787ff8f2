package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.trace.NodeShape;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayPromotionTest {

    private static final List<NodeSpec> NODES = NodeShape.ALIBABA_G2.nodes(2);
    private static final PromotionGate.Settings GATE = PromotionGate.Settings.DEFAULT;

    @Test
    void settingsThatCannotFillTheWindowsAreRefused() {
        try (SacAgent a = SacAgent.create(SacSettings.DEFAULT, 1)) {
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> new ReplayPromotion(a, NODES, 1.0, GATE, 0, 100)).getMessage().startsWith("checkEvery"));
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> new ReplayPromotion(a, NODES, 1.0, GATE, 10, 9)).getMessage().startsWith("checkJobs 9"));
        }
    }

    @Test
    void noCheckIsMadeBeforeTheCheckSetIsFullAndThenOneEveryCheckEveryJobs() throws IOException {
        List<JobRequest> jobs = ReplayCheckTest.jobs(200, 4);
        try (SacAgent shipped = SacCheckpoint.load(SacPolicy.DEFAULT_CHECKPOINT);
             SacAgent trainee = SacCheckpoint.load(SacPolicy.DEFAULT_CHECKPOINT);
             ReplayPromotion p = new ReplayPromotion(shipped, NODES, 1.0, GATE, 30, 100)) {
            assertFalse(p.completed(jobs.subList(0, 99), 1, trainee));
            assertEquals(0, p.checks().size(), "99 of the 100 jobs of the check set");
            assertFalse(p.completed(jobs.subList(99, 100), 2, trainee));
            assertEquals(1, p.checks().size(), "the set is full, and 100 >= 30 jobs since the start");
            assertFalse(p.completed(jobs.subList(100, 129), 3, trainee));
            assertEquals(1, p.checks().size(), "29 jobs since the last check");
            assertFalse(p.completed(jobs.subList(129, 130), 4, trainee));
            assertEquals(2, p.checks().size());
            ReplayPromotion.Check c = p.checks().get(1);
            assertEquals(130, c.completedJobs());
            assertEquals(4, c.atS());
            assertEquals("v0", c.current());
            // The trainee has the shipped weights: a tie in every window, which the gate never promotes.
            assertEquals(1.0, c.result().pValue(), 0.0);
            assertEquals(0, p.promotions());
            assertTrue(p.followUps().isEmpty());
        }
    }

    @Test
    void aPromotedVersionDecidesAsACopyAndIsReplayedAgainstItsPredecessorOnTheNextCheckSet() throws IOException {
        try (SacAgent shipped = SacCheckpoint.load(SacPolicy.DEFAULT_CHECKPOINT);
             SacAgent trainee = PromotionGateTest.withoutPrior(6)) {
            // PromotionGateTest saw the plain actor pass the gate against the shipped one on some of these sets.
            for (long seed = 8; seed <= 10; seed++) {
                try (ReplayPromotion p = new ReplayPromotion(shipped, NODES, 1.0, GATE, 240, 240)) {
                    if (!p.completed(ReplayCheckTest.jobs(240, seed), 100, trainee)) {
                        assertEquals("v0", p.currentName());
                        continue;
                    }
                    assertEquals(1, p.promotions());
                    assertEquals("v1", p.currentName());
                    assertNotSame(trainee, p.current(), "the trainee goes on learning: the promoted version is a copy");
                    PromotionGate.Result promoted = p.checks().get(0).result();
                    assertTrue(promoted.candidateAvgJctS() < (1 - GATE.minImprovement()) * promoted.currentAvgJctS(),
                            promoted.reason());

                    List<JobRequest> next = ReplayCheckTest.jobs(240, seed + 100);
                    assertFalse(p.completed(next, 200, trainee), "the trainee is v1 itself: a tie, not promoted");
                    assertEquals(1, p.followUps().size());
                    ReplayPromotion.FollowUp f = p.followUps().get(0);
                    assertEquals("v1", f.promoted());
                    assertEquals("v0", f.replaced());
                    assertEquals(200, f.atS());
                    PromotionGate.Result again = PromotionGate.check(p.current(), shipped, next, NODES, 1.0, GATE);
                    assertEquals(again.candidateAvgJctS(), f.promotedAvgJctS(), "replays are deterministic");
                    assertEquals(again.currentAvgJctS(), f.replacedAvgJctS());
                    assertEquals(f.promotedAvgJctS() > f.replacedAvgJctS(), f.worse());
                    assertEquals(2, p.checks().size());
                    assertEquals("v1", p.checks().get(1).current());
                    return;
                }
            }
            throw new AssertionError("the plain actor passed the gate on none of the three check sets");
        }
    }
}
