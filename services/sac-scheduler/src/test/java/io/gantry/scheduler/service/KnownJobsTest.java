package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import org.junit.jupiter.api.Test;

class KnownJobsTest {

    @Test
    void liveJobsAreNeverForgottenAndEndedOnesOnlyPastTheWindow() {
        KnownJobs known = new KnownJobs(3);
        for (int i = 0; i < 10; i++) {
            assertNull(known.putIfAbsent("live-" + i, "e" + i));
        }
        for (int i = 0; i < 100; i++) {
            known.putIfAbsent("done-" + i, "d" + i);
            known.ended("done-" + i);
        }
        assertEquals(10, known.liveCount(), "every live job is still remembered");
        assertEquals(3, known.endedCount(), "only the window of ended jobs is");
        assertEquals("e0", known.putIfAbsent("live-0", "other"), "a live job's first event id answers");
        assertEquals("d99", known.putIfAbsent("done-99", "other"), "so does a recently ended job's");
        assertNull(known.putIfAbsent("done-0", "again"), "the oldest ended job is forgotten: its id is new again");
    }

    @Test
    void endingAJobThatIsNotLiveChangesNothing() {
        KnownJobs known = new KnownJobs(3);
        known.ended("never-seen");
        assertEquals(0, known.endedCount());
        known.putIfAbsent("a", "e");
        known.ended("a");
        known.ended("a");
        assertEquals(1, known.endedCount());
        assertEquals(0, known.liveCount());
    }

    @Test
    void aRestoreEndsEveryJobNotLiveInTheOrderTheTopicHeldThem() {
        KnownJobs known = new KnownJobs(2);
        for (String id : new String[] {"a", "b", "c", "d"}) {
            known.putIfAbsent(id, "e-" + id);
        }
        known.endAllBut(Set.of("b"));
        assertEquals(1, known.liveCount());
        assertEquals(2, known.endedCount());
        assertNull(known.putIfAbsent("a", "x"), "the earliest ended job fell out of the window");
        assertEquals("e-d", known.putIfAbsent("d", "x"));
        assertEquals("e-b", known.putIfAbsent("b", "x"));
    }

    @Test
    void aWindowOfNothingIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KnownJobs(0));
    }
}
