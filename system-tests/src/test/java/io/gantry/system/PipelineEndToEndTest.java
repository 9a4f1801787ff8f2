package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker and the five services as separate processes; jobs submitted with a plain Kafka producer. Every
 * job must reach exactly one terminal state, nothing may start twice, and every decision names its policy. The
 * system is shared with PoisonJobTest ({@link SharedThreeNodeSystem}): only this test's jobs are counted.
 */
@ExtendWith(SharedThreeNodeSystem.class)
class PipelineEndToEndTest {

    private static final int JOBS = 120;

    private static JobSubmitted job(String id, String user, int tasks, long gpuMilli, double durationS) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), id, user, id, null, tasks,
                new ResourceAmounts(gpuMilli, 4000, 16384), null, null, durationS, null);
    }

    @Test
    void everyJobEndsExactlyOnceThroughTheRealBrokerAndSeparateProcesses(GantryProcesses system) throws Exception {
        Set<String> expected = new HashSet<>();
        try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
            for (int i = 0; i < JOBS; i++) {
                // Mixed sizes on 3 nodes of 8 GPUs: some jobs queue, some are 2-task gangs across nodes.
                int tasks = i % 10 == 0 ? 2 : 1;
                long gpu = i % 3 == 0 ? 8000 : i % 3 == 1 ? 1000 : 470;
                JobSubmitted j = job("job-" + i, "user-" + (i % 4), tasks, gpu, 50 + (i % 7) * 100);
                probe.send(Topics.JOBS_SUBMITTED, j.jobId(), EventCodec.encode(j));
                expected.add(j.jobId());
                if (i == 5) {
                    // A redelivery of the same event must not create a second job.
                    probe.send(Topics.JOBS_SUBMITTED, j.jobId(), EventCodec.encode(j));
                }
            }
            JobSubmitted tooBig = job("too-big", "user-0", 1, 16000, 10);
            probe.send(Topics.JOBS_SUBMITTED, tooBig.jobId(), EventCodec.encode(tooBig));
            expected.add(tooBig.jobId());
            probe.send(Topics.JOBS_SUBMITTED, "garbage", "{ not an event");

            List<TopicProbe.Seen> terminal = probe.await(Topics.JOBS_LIFECYCLE, expected.size(),
                    Duration.ofSeconds(240), s -> expected.contains(s.key()) && isTerminal(s.value()));
            // Give any second (wrong) terminal event a moment to show up before counting.
            Thread.sleep(2_000);
            Map<String, Integer> terminalCount = new HashMap<>();
            Map<String, List<Integer>> startedAttempts = new HashMap<>();
            Map<String, Integer> preemptedCount = new HashMap<>();
            for (TopicProbe.Seen s : probe.readAll(Topics.JOBS_LIFECYCLE)) {
                LifecycleEvent e = EventCodec.decode(s.value(), LifecycleEvent.class);
                if (!expected.contains(e.jobId())) {
                    continue;
                }
                if (e.terminal()) {
                    terminalCount.merge(e.jobId(), 1, Integer::sum);
                } else if (e instanceof JobStarted started) {
                    startedAttempts.computeIfAbsent(e.jobId(), k -> new ArrayList<>()).add(started.attempt());
                } else if (e instanceof JobPreempted) {
                    preemptedCount.merge(e.jobId(), 1, Integer::sum);
                }
            }
            assertEquals(expected, terminalCount.keySet(), "every submitted job ends");
            terminalCount.forEach((id, n) -> assertEquals(1, n, id + " ended " + n + " times"));
            // sac preempts by default: a job starts again only as a new attempt, after a stop.
            startedAttempts.forEach((id, attempts) -> {
                assertEquals(attempts.size(), new HashSet<>(attempts).size(), id + " started an attempt twice: " + attempts);
                assertTrue(attempts.size() <= 1 + preemptedCount.getOrDefault(id, 0),
                        id + " started " + attempts + " but was preempted " + preemptedCount.getOrDefault(id, 0) + " times");
            });
            assertEquals(JOBS, startedAttempts.size(), "every job that fits started");
            assertFalse(startedAttempts.containsKey("too-big"));
            assertTrue(terminal.stream().anyMatch(s -> s.key().equals("too-big") && s.value().contains("JobRejected")));
            // A stop that reached the dispatcher after the decision using its room would make that bind fail.
            assertEquals(List.of(), terminal.stream().filter(s -> s.value().contains("\"JobFailed\""))
                    .map(TopicProbe.Seen::key).toList(), "jobs that failed");

            List<TopicProbe.Seen> decisions = probe.readAll(Topics.SCHEDULING_DECISIONS).stream()
                    .filter(s -> expected.contains(s.key())).toList();
            Map<String, Set<Integer>> decidedAttempts = new HashMap<>();
            for (TopicProbe.Seen s : decisions) {
                SchedulingDecision d = EventCodec.decode(s.value(), SchedulingDecision.class);
                assertEquals("sac", d.policy(), "the default policy");
                assertFalse(d.policyVersion().isBlank());
                assertTrue(decidedAttempts.computeIfAbsent(d.jobId(), k -> new HashSet<>()).add(d.attempt()),
                        d.jobId() + " attempt " + d.attempt() + " decided twice");
            }
            assertEquals(JOBS, decidedAttempts.size(), "every job that fits was decided");
            decidedAttempts.forEach((id, attempts) -> assertEquals(1 + preemptedCount.getOrDefault(id, 0),
                    attempts.size(), id + ": one decision per attempt, one attempt more than its stops"));
            probe.await(Topics.deadLetter("job-tuner"), 1, Duration.ofSeconds(30), s -> s.key().equals("garbage"));
        }
        assertTrue(system.get("sac-scheduler", "/q/metrics").contains("gantry_scheduler_decisions_total"));
    }

    private static boolean isTerminal(String json) {
        try {
            return EventCodec.decode(json, LifecycleEvent.class).terminal();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
