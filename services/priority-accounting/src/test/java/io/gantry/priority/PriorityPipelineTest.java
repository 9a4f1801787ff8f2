package io.gantry.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.UserPriority;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PriorityPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static String completed(String jobId, String user) {
        return EventCodec.encode(new JobCompleted(Events.newId(), 1, Instant.now(), jobId, user, List.of("n1"),
                new ResourceAmounts(1000, 1000, 1024), Instant.now(), 10));
    }

    @Test
    void publishesConfiguredUsersAtStartAndNewUsersOnceAndDeadLettersBadEvents() {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            UserPriority fav = EventCodec.decode(probe.await(Topics.USERS_PRIORITY, 1, WAIT,
                    s -> s.key().equals("admin-favourite")).get(0).value(), UserPriority.class);
            assertEquals(10.0, fav.basePriority());

            probe.send(Topics.JOBS_LIFECYCLE, "bad-1", "{{{");
            probe.send(Topics.JOBS_LIFECYCLE, "bad-2", completed("bad-2", "bob").replace("\"runtimeS\":10.0", "\"runtimeS\":-1"));
            probe.send(Topics.JOBS_LIFECYCLE, "j1", completed("j1", "bob"));
            probe.send(Topics.JOBS_LIFECYCLE, "j2", completed("j2", "bob"));
            probe.send(Topics.JOBS_LIFECYCLE, "j3", completed("j3", "carol"));

            var dead = probe.await(Topics.deadLetter("priority-accounting"), 2, WAIT, s -> s.key().startsWith("bad-"));
            assertTrue(dead.get(0).headers().get("dead-letter-reason").contains("malformed JSON"));
            assertTrue(dead.get(1).headers().get("dead-letter-reason").contains("runtimeS"));

            probe.await(Topics.USERS_PRIORITY, 1, WAIT, s -> s.key().equals("carol"));
            long bobs = probe.readAll(Topics.USERS_PRIORITY).stream().filter(s -> s.key().equals("bob")).count();
            assertEquals(1, bobs, "a user's unchanged priority is published once");
        }
    }
}
