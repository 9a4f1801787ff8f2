package io.gantry.dispatcher;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobStarted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a previous run of the dispatcher left on the lifecycle topic, written before the app starts: {@code done-1}
 * completed, {@code orphan-1} started and was still running when that run stopped.
 */
public class PriorLifecycleResource implements QuarkusTestResourceLifecycleManager {

    static final ResourceAmounts PER_TASK = new ResourceAmounts(1000, 1000, 1024);

    @Override
    public Map<String, String> start() {
        Instant submitted = Instant.parse("2026-01-01T00:00:00Z");
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            probe.send(Topics.JOBS_LIFECYCLE, "done-1", EventCodec.encode(new JobStarted(Events.newId(), 1,
                    Instant.now(), "done-1", "bob", List.of("sim-node-02"), PER_TASK, submitted, "v1")));
            probe.send(Topics.JOBS_LIFECYCLE, "done-1", EventCodec.encode(new JobCompleted(Events.newId(), 1,
                    Instant.now(), "done-1", "bob", List.of("sim-node-02"), PER_TASK, submitted, 30.0)));
            probe.send(Topics.JOBS_LIFECYCLE, "orphan-1", EventCodec.encode(new JobStarted(Events.newId(), 1,
                    Instant.now(), "orphan-1", "bob", List.of("sim-node-02"), PER_TASK, submitted, "v1")));
        }
        return Map.of();
    }

    @Override
    public void stop() {
    }
}
