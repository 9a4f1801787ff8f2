package io.gantry.dispatcher.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DispatcherMetricsTest {

    /** A cluster with a fixed number of running jobs; the metrics only ask it that. */
    private record Running(int jobs) implements ClusterBackend {
        @Override
        public BindOutcome bind(SchedulingDecision decision) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean startsOnBind() {
            return true;
        }

        @Override
        public void preempt(Preemption victim, SchedulingDecision forDecision, JobEvents events) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void run(SchedulingDecision decision, JobEvents events) {
        }

        @Override
        public void resume(LifecycleHistoryReader.History history, JobEvents events) {
        }

        @Override
        public int runningJobs() {
            return jobs;
        }
    }

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static JobCompleted completed(Instant submitted, Instant ended) {
        return new JobCompleted(Events.newId(), 1, ended, "j", "u", List.of("n1"), new ResourceAmounts(1000, 1000, 1024),
                submitted, 1.0);
    }

    @Test
    void jobsByStateCountEachJobOnceAndTheJctIsInTheClustersSeconds() {
        // A simulated cluster at 1000x: 2 wall seconds are 2000 cluster seconds (between 30 min and 1 h).
        DispatcherMetrics metrics = new DispatcherMetrics(registry, new Running(3), 1000);
        Instant t0 = Instant.parse("2026-11-29T00:00:00Z");
        metrics.completed(completed(t0, t0.plusSeconds(2)));
        metrics.completed(completed(t0, t0.plusMillis(30)));
        metrics.failed("oom_killed");

        Map<String, Double> byState = registry.find("gantry.jobs").gauges().stream()
                .collect(Collectors.toMap(g -> g.getId().getTag("state"), g -> g.value()));
        assertEquals(Map.of("running", 3.0, "completed", 2.0, "failed", 1.0), byState);

        Timer jct = registry.find("gantry.job.completion").timer();
        assertEquals(2, jct.count());
        assertEquals(2030.0, jct.totalTime(java.util.concurrent.TimeUnit.SECONDS), 1e-6);
        Map<Double, Double> cumulative = Arrays.stream(jct.takeSnapshot().histogramCounts())
                .collect(Collectors.toMap(b -> b.bucket(java.util.concurrent.TimeUnit.SECONDS), CountAtBucket::count));
        assertEquals(1.0, cumulative.get(60.0)); // 30 cluster seconds
        assertEquals(1.0, cumulative.get(1800.0));
        assertEquals(2.0, cumulative.get(3600.0));
    }

    @Test
    void aRealTimeClusterRecordsTheWallClockJct() {
        DispatcherMetrics metrics = new DispatcherMetrics(registry, new Running(0));
        Instant t0 = Instant.parse("2026-11-29T00:00:00Z");
        metrics.completed(completed(t0, t0.plusSeconds(600)));
        assertEquals(600.0, registry.find("gantry.job.completion").timer()
                .totalTime(java.util.concurrent.TimeUnit.SECONDS), 1e-6);
    }
}
