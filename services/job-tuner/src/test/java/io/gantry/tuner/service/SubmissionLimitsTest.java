package io.gantry.tuner.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SubmissionLimitsTest {

    private final AtomicLong now = new AtomicLong();

    @Test
    void aBurstThenTheSustainedRatePerUserEachUserWithItsOwnBucket() {
        SubmissionLimits limits = new SubmissionLimits(100, 3, 2.0, now::get);
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(SubmissionLimits.Admitted.class, limits.admit("alice", "a" + i));
        }
        SubmissionLimits.Refused r = assertInstanceOf(SubmissionLimits.Refused.class, limits.admit("alice", "a3"));
        assertEquals(429, r.status());
        assertEquals("user", r.rejection().field());
        assertTrue(r.rejection().reason().startsWith("submits faster than the 2 jobs per second (bursts of 3)"), r.toString());
        assertTrue(r.rejection().reason().endsWith("retry in 0.5 s"), r.toString());
        // bob is not slowed by alice.
        assertInstanceOf(SubmissionLimits.Admitted.class, limits.admit("bob", "b0"));
        now.addAndGet(500_000_000L);
        assertInstanceOf(SubmissionLimits.Admitted.class, limits.admit("alice", "a3"));
        assertInstanceOf(SubmissionLimits.Refused.class, limits.admit("alice", "a4"));
        // A long pause refills no more than the burst.
        now.addAndGet(3_600_000_000_000L);
        for (int i = 5; i < 8; i++) {
            assertInstanceOf(SubmissionLimits.Admitted.class, limits.admit("alice", "a" + i));
        }
        assertInstanceOf(SubmissionLimits.Refused.class, limits.admit("alice", "a8"));
    }

    @Test
    void pendingJobsAreCappedPerUserAndAnEndedOneFreesItsPlace() {
        SubmissionLimits limits = new SubmissionLimits(2, 100, 100.0, now::get);
        limits.admit("alice", "j1");
        limits.admit("alice", "j2");
        SubmissionLimits.Refused r = assertInstanceOf(SubmissionLimits.Refused.class, limits.admit("alice", "j3"));
        assertEquals(429, r.status());
        assertTrue(r.rejection().reason().startsWith("has 2 pending jobs submitted here"), r.toString());
        assertEquals(2, limits.pending("alice"));
        // A refusal takes nothing, another user has their own cap, an unknown end changes nothing.
        assertInstanceOf(SubmissionLimits.Admitted.class, limits.admit("bob", "j4"));
        limits.ended("not-ours");
        limits.ended("j1");
        limits.ended("j1");
        assertEquals(1, limits.pending("alice"));
        assertInstanceOf(SubmissionLimits.Admitted.class, limits.admit("alice", "j3"));
        // The same id while it is pending: a conflict, not a second job.
        assertEquals(409, assertInstanceOf(SubmissionLimits.Refused.class, limits.admit("alice", "j3")).status());
        limits.withdraw("j3");
        assertEquals(1, limits.pending("alice"));
    }

    @Test
    void nonsenseSettingsFailTheStart() {
        assertThrows(IllegalArgumentException.class, () -> new SubmissionLimits(0, 1, 1.0, now::get));
        assertThrows(IllegalArgumentException.class, () -> new SubmissionLimits(1, 1, Double.NaN, now::get));
    }
}
