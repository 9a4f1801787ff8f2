package io.gantry.ingest.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gantry.events.Events;
import io.gantry.events.JobFailed;
import io.gantry.events.JobProgress;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The bound on series: removal after the end, after silence, and beyond max-jobs. */
class JobTrainingMetricsTest {

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static JobProgress progress(String job) {
        return new JobProgress(Events.newId(), 1, Instant.now(), job, "u", 0.5, 1, 1.0, 0.5, 10.0);
    }

    @Test
    void endedJobsGoAfterForgetAfterSilentOnesAfterForgetSilentAfterAndTheOldestBeyondMaxJobs() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TestClock clock = new TestClock();
        JobTrainingMetrics m = new JobTrainingMetrics(registry, Duration.ofMinutes(5), Duration.ofHours(1), 3, clock);
        m.on(progress("a"));
        m.on(progress("b"));
        m.on(new JobFailed(Events.newId(), 1, Instant.now(), "a", "u", java.util.List.of("n1"), null, "killed", true));
        clock.now = clock.now.plusSeconds(299);
        assertEquals(0, m.sweep());
        clock.now = clock.now.plusSeconds(1);
        assertEquals(1, m.sweep());
        assertNull(registry.find(JobTrainingMetrics.PROGRESS).tag("job_id", "a").gauge());
        assertNotNull(registry.find(JobTrainingMetrics.PROGRESS).tag("job_id", "b").gauge());
        assertEquals(5, registry.find("gantry_job_progress").meters().size()
                + registry.find("gantry_job_epoch").meters().size() + registry.find("gantry_job_loss").meters().size()
                + registry.find("gantry_job_accuracy").meters().size()
                + registry.find("gantry_job_samples_per_second").meters().size());

        // b is silent for an hour: gone.
        clock.now = clock.now.plus(Duration.ofHours(1));
        assertEquals(1, m.sweep());
        assertEquals(0, m.trackedJobs());
        assertEquals(0, registry.getMeters().size());

        // Max 3 jobs: the fourth pushes out the one that ended, else the least recently heard from.
        m.on(progress("c"));
        clock.now = clock.now.plusSeconds(1);
        m.on(progress("d"));
        clock.now = clock.now.plusSeconds(1);
        m.on(progress("e"));
        clock.now = clock.now.plusSeconds(1);
        m.on(progress("f"));
        assertEquals(3, m.trackedJobs());
        assertNull(registry.find(JobTrainingMetrics.PROGRESS).tag("job_id", "c").gauge());
        assertEquals(0.5, registry.find(JobTrainingMetrics.PROGRESS).tag("job_id", "f").gauge().value());
    }
}
