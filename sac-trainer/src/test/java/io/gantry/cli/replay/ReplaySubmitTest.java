package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.JobSubmitted;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A submission's {@code occurredAt} is the moment the replay sends it: the pipeline's submit-to-bind latency starts
 * there, so the replay's own pacing (a job planned now, sent seconds later at its rate) must not count in it.
 */
class ReplaySubmitTest {

    /** The event as handed to the producer, and the clock when it was. */
    private record Sent(JobSubmitted event, Instant at) {
    }

    @Test
    void eachJobIsStampedWhenItIsSentNotWhenItWasPlanned(@TempDir Path dir) throws Exception {
        List<JobRequest> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(new JobRequest("job-" + i, "u", 1, new Resources(1000, 1000, 1024), i, 0, Double.NaN, 60));
        }
        // 10 jobs/s: job i is due i × 100 ms after the first is sent.
        ReplayOptions o = options(dir, "--rate", "10");
        List<ReplayCommand.Planned> plan = ReplayCommand.plan(jobs, o);
        Thread.sleep(150); // planning long before sending, as a slow start-up would
        List<Sent> sent = new ArrayList<>();
        LifecycleTally tally = new LifecycleTally(1);
        Instant before = Instant.now();
        ReplayCommand.submit(plan, o, e -> sent.add(new Sent(e, Instant.now())), tally);

        assertEquals(4, sent.size());
        for (int i = 0; i < sent.size(); i++) {
            Sent s = sent.get(i);
            String id = s.event().jobId();
            Instant stamped = s.event().occurredAt();
            assertFalse(stamped.isBefore(before), id + " stamped " + stamped + ", before the first send " + before);
            assertFalse(stamped.isAfter(s.at()), id + " stamped after it was sent");
            // Paced: job i left no sooner than i × 100 ms after the start, and its stamp says so (1 ms slack).
            assertFalse(stamped.isBefore(before.plus(Duration.ofMillis(100L * i - 1))),
                    id + " stamped " + Duration.between(before, stamped).toMillis() + " ms after the start");
            assertTrue(s.event().violations().isEmpty(), s.event().violations().toString());
        }
        assertEquals(4, tally.snapshot().submitted());
    }

    private static ReplayOptions options(Path dir, String... flags) throws IOException {
        Path trace = Files.writeString(dir.resolve("trace.csv"), "");
        List<String> args = new ArrayList<>(List.of("--trace-file", trace.toString()));
        args.addAll(List.of(flags));
        return ReplayOptions.parse(args.toArray(String[]::new));
    }
}
