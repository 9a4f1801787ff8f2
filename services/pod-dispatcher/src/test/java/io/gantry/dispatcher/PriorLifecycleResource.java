package io.gantry.dispatcher;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobStarted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a previous run of the dispatcher left on the topics, written before the app starts: {@code done-1} completed;
 * {@code orphan-1} started (decided for 60,000 s, 60 s at the test's 1000x: longer than the app takes to start, even
 * on a loaded machine)
 * and was still running when that run stopped; {@code ended-while-down-1} started an hour ago for 30 s, so its run ended while no dispatcher ran.
 */
public class PriorLifecycleResource implements QuarkusTestResourceLifecycleManager {

    static final ResourceAmounts PER_TASK = new ResourceAmounts(1000, 1000, 1024);
    static final Instant SUBMITTED = Instant.parse("2026-01-01T00:00:00Z");
    static final double ORPHAN_DURATION_S = 60_000;
    static final Instant LONG_AGO = Instant.now().minusSeconds(3600);

    @Override
    public Map<String, String> start() {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_LIFECYCLE, "done-1", EventCodec.encode(new JobStarted(Events.newId(), 1,
                    Instant.now(), "done-1", "bob", List.of("sim-node-02"), PER_TASK, SUBMITTED, "v1")));
            probe.send(Topics.JOBS_LIFECYCLE, "done-1", EventCodec.encode(new JobCompleted(Events.newId(), 1,
                    Instant.now(), "done-1", "bob", List.of("sim-node-02"), PER_TASK, SUBMITTED, 30.0)));
            started(probe, "orphan-1", Instant.now(), ORPHAN_DURATION_S);
            started(probe, "ended-while-down-1", LONG_AGO, 30.0);
        }
        return Map.of();
    }

    private static void started(TopicProbe probe, String jobId, Instant at, double durationS) {
        probe.send(Topics.SCHEDULING_DECISIONS, jobId, EventCodec.encode(new SchedulingDecision(Events.newId(), 1, at,
                jobId, "bob", List.of("sim-node-02"), PER_TASK, durationS, SUBMITTED, "kube-default", "v1")));
        probe.send(Topics.JOBS_LIFECYCLE, jobId, EventCodec.encode(new JobStarted(Events.newId(), 1, at, jobId, "bob",
                List.of("sim-node-02"), PER_TASK, SUBMITTED, "v1")));
    }

    @Override
    public void stop() {
    }
}
