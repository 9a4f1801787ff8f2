package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the learner's replay check replays: a job's whole run, preempted stints included. */
class JobHistoryTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");
    private static final ResourceAmounts ONE_GPU = new ResourceAmounts(1000, 1000, 1024);

    private static JobTuned tuned(String id) {
        return new JobTuned(Events.newId(), 1, T0, id, "u", id, null, T0, 1, ONE_GPU, null, null, 1000.0, null,
                List.of(), "test");
    }

    private static JobPreempted preempted(String id, int attempt, double ranS) {
        return new JobPreempted(Events.newId(), 1, T0, id, "u", List.of("n1"), ONE_GPU, "test", attempt, ranS);
    }

    @Test
    void aResumedJobIsReplayedWithItsWholeRunTime() {
        JobHistory h = new JobHistory(10, new JobClock(1000));
        h.tuned(tuned("a"));
        h.tuned(tuned("b"));
        h.lifecycle(preempted("a", 1, 300));
        h.lifecycle(preempted("a", 2, 200));
        h.lifecycle(new JobCompleted(Events.newId(), 1, T0, "a", "u", List.of("n1"), ONE_GPU, T0, 500));
        h.lifecycle(preempted("b", 1, 100));
        h.lifecycle(new JobFailed(Events.newId(), 1, T0, "b", "u", List.of("n1"), ONE_GPU, "test", false));
        assertEquals(1, h.recentCompleted().size(), "a failed job has no run to replay");
        assertEquals(1000, h.recentCompleted().get(0).trueDurationS(), 1e-9, "300 + 200 before, 500 in the last stint");
        assertEquals(T0.getEpochSecond() * 1000.0, h.recentCompleted().get(0).submitTime(), 1e-3, "on the jobs' clock");
    }
}
