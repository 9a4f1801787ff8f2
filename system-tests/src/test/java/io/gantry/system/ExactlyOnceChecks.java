package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The no-duplicate checks of the restart tests, read from the topics themselves; shared with container-tests,
 * whose kill test applies them to a container killed mid-run.
 */
public final class ExactlyOnceChecks {

    private ExactlyOnceChecks() {
    }

    /** One JobStarted per decided stint, no JobFailed, one SchedulingDecision per stint. */
    public static void eachStintStartedOnceAndNothingFailed(TopicProbe probe, String context) {
        Map<String, Integer> startsPerStint = new HashMap<>();
        for (TopicProbe.Seen r : probe.readAll(Topics.JOBS_LIFECYCLE)) {
            LifecycleEvent e = EventCodec.decode(r.value(), LifecycleEvent.class);
            if (e instanceof JobFailed f) {
                throw new AssertionError("job " + f.jobId() + " failed: " + f.reason() + "; " + context);
            }
            if (e instanceof JobStarted started) {
                startsPerStint.merge(started.jobId() + "#" + started.attempt(), 1, Integer::sum);
            }
        }
        startsPerStint.forEach((stint, n) -> assertEquals(1, n, stint + " started " + n + " times; " + context));
        Map<String, Integer> decisionsPerStint = new HashMap<>();
        for (TopicProbe.Seen r : probe.readAll(Topics.SCHEDULING_DECISIONS)) {
            SchedulingDecision d = EventCodec.decode(r.value(), SchedulingDecision.class);
            decisionsPerStint.merge(d.jobId() + "#" + d.attempt(), 1, Integer::sum);
        }
        decisionsPerStint.forEach((stint, n) -> assertEquals(1, n, stint + " decided " + n + " times; " + context));
    }

    /**
     * The replay's summary file: all {@code jobs} submitted, each ended once (completed or rejected), none lost,
     * duplicated, unfinished or failed. Returns the summary for the caller's own further checks.
     */
    public static JsonNode summaryEndedEveryJobOnce(Path summary, int jobs, String context) throws IOException {
        JsonNode s = EventCodec.mapper().readTree(Files.readString(summary));
        assertEquals(jobs, s.get("submitted").asInt(), context);
        assertEquals(0, s.get("duplicates").asInt(), "duplicates; " + context);
        assertEquals(0, s.get("unfinished").asInt(), "unfinished; " + context);
        assertEquals(0, s.get("failed").asInt(), "failed; " + context);
        assertEquals(jobs, s.get("completed").asInt() + s.get("rejected").asInt(), context);
        return s;
    }

    /** A record of the lifecycle topic that ends a job: completed, failed or rejected. */
    public static boolean terminal(TopicProbe.Seen r) {
        return r.value().contains("\"JobCompleted\"") || r.value().contains("\"JobFailed\"")
                || r.value().contains("\"JobRejected\"");
    }
}
