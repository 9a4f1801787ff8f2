package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 22's poison job through the real broker and the five services as processes: the exact submission that killed
 * job-tuner's consumer (tasks and tuning.maxGpus = 2^31-1, model cifar10 with a batch size) is dead-lettered with a
 * reason naming the field, and so are a JobCompleted sent to the submissions topic and a 100,000-character user; the
 * 100 ordinary jobs submitted after them all complete, each exactly once. The system is shared with
 * PipelineEndToEndTest ({@link SharedThreeNodeSystem}), whose own dead letter and rejection are not counted here.
 */
@ExtendWith(SharedThreeNodeSystem.class)
class PoisonJobTest {

    private static final int JOBS = 100;
    private static final String DLQ = Topics.deadLetter("job-tuner");
    private static final Set<String> POISONS = Set.of("poison-1", "wrong-type-1", "huge-user-1");
    private static final Pattern DEAD_LETTERED =
            Pattern.compile("gantry_events_dead_lettered_total\\{channel=\"submitted\"} ([0-9.]+)");

    private static String poison() {
        return "{\"type\":\"JobSubmitted\",\"eventId\":\"" + Events.newId() + "\",\"schemaVersion\":1,"
                + "\"occurredAt\":\"" + Instant.now() + "\",\"jobId\":\"poison-1\",\"user\":\"alice\",\"jobName\":\"poison\","
                + "\"model\":\"cifar10\",\"tasks\":2147483647,"
                + "\"perTask\":{\"gpuMilli\":1000,\"cpuMilli\":4000,\"memoryMib\":8192},\"batchSize\":256,"
                + "\"tuning\":{\"enabled\":true,\"maxGpus\":2147483647}}";
    }

    private static double deadLettered(GantryProcesses system) throws Exception {
        Matcher m = DEAD_LETTERED.matcher(system.get("job-tuner", "/q/metrics"));
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static JobSubmitted job(String id, String user, double durationS) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, user, id, null, 1,
                new ResourceAmounts(1000, 4000, 16384), null, null, durationS, null);
    }

    @Test
    void thePoisonJobIsDeadLetteredAndTheHundredJobsAfterItEachCompleteOnce(GantryProcesses system) throws Exception {
        // 3 nodes of 8 GPUs, 1-GPU jobs of 10-60 simulated seconds at 1000x: each runs for a few milliseconds.
        double deadLetteredBefore = deadLettered(system);
        try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
            probe.send(Topics.JOBS_SUBMITTED, "poison-1", poison());
            JobCompleted completed = new JobCompleted(Events.newId(), 1, Instant.now(), "wrong-type-1", "alice",
                    List.of("sim-node-01"), new ResourceAmounts(1000, 1000, 1024), Instant.now(), 10);
            probe.send(Topics.JOBS_SUBMITTED, completed.key(), EventCodec.encode(completed));
            JobSubmitted hugeUser = job("huge-user-1", "u".repeat(100_000), 10);
            probe.send(Topics.JOBS_SUBMITTED, hugeUser.key(), EventCodec.encode(hugeUser));
            Set<String> ordinary = new LinkedHashSet<>();
            for (int i = 0; i < JOBS; i++) {
                JobSubmitted j = job("after-poison-" + i, "user-" + (i % 4), 10 + (i % 6) * 10);
                probe.send(Topics.JOBS_SUBMITTED, j.jobId(), EventCodec.encode(j));
                ordinary.add(j.jobId());
            }

            Map<String, String> reasons = new HashMap<>();
            probe.await(DLQ, 3, Duration.ofSeconds(120), s -> POISONS.contains(s.key()))
                    .forEach(s -> reasons.put(s.key(), s.headers().get("dead-letter-reason")));
            assertEquals("invalid event: tasks: must be at most 1024, was 2147483647; "
                    + "tuning.maxGpus: must be at most 8192, was 2147483647", reasons.get("poison-1"));
            assertEquals("invalid event: type: expected JobSubmitted, got JobCompleted", reasons.get("wrong-type-1"));
            assertEquals("invalid event: user: must be at most 200 characters, was 100000", reasons.get("huge-user-1"));

            probe.await(Topics.JOBS_LIFECYCLE, JOBS, Duration.ofSeconds(240),
                    s -> ordinary.contains(s.key()) && s.value().contains("\"JobCompleted\""));
            Thread.sleep(2_000); // a second (wrong) end of any job would show up by now
            Map<String, Integer> ends = new HashMap<>();
            Map<String, String> rejections = new HashMap<>();
            for (TopicProbe.Seen s : probe.readAll(Topics.JOBS_LIFECYCLE)) {
                LifecycleEvent e = EventCodec.decode(s.value(), LifecycleEvent.class);
                if (e.terminal()) {
                    ends.merge(e.jobId(), 1, Integer::sum);
                    assertTrue(!ordinary.contains(e.jobId()) || e instanceof JobCompleted, e.toString());
                }
                if (e instanceof JobRejected r && POISONS.contains(r.jobId())) {
                    rejections.put(r.jobId(), r.field());
                }
            }
            ordinary.forEach(id -> assertEquals(1, ends.getOrDefault(id, 0), id + " ended " + ends.get(id) + " times"));
            // The submitters of the readable submissions are told too, naming the field; a JobCompleted is no
            // submission and is never rejected as one.
            assertEquals(Map.of("poison-1", "tasks", "huge-user-1", "user"), rejections);
        }
        HttpClient http = HttpClient.newHttpClient();
        int ready = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + system.port("job-tuner")
                + "/q/health/ready")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        assertEquals(200, ready, "job-tuner's consumer is alive");
        assertEquals(3.0, deadLettered(system) - deadLetteredBefore, "three dead letters counted");
    }
}
