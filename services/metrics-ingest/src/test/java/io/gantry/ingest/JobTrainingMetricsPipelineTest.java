package io.gantry.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobProgress;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.MetricsScrape;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The {@code gantry_job_*} gauges from JobProgress events written to a real broker's lifecycle topic, as a job's
 * runner writes them; their removal after the job's end (2 s in the test profile); a bad record dead-lettered.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(FakeExporterResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class JobTrainingMetricsPipelineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static TopicProbe probe() {
        return new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers());
    }

    private static JobProgress progress(String job, String user, double progress, int epoch, double loss, double acc,
                                        double sps) {
        return new JobProgress(Events.newId(), 1, Instant.now(), job, user, progress, epoch, loss, acc, sps);
    }

    private static String awaitMetrics(Predicate<String> until) {
        return MetricsScrape.await(WAIT, "metrics", until);
    }

    private static List<String> seriesOf(String body, String jobId) {
        return body.lines().filter(l -> l.startsWith("gantry_job_") && l.contains("job_id=\"" + jobId + "\""))
                .sorted().toList();
    }

    @Test
    void progressBecomesPerJobGaugesWhichGoAwayAfterTheJobEnds() {
        try (TopicProbe probe = probe()) {
            JobProgress first = progress("train-1", "alice", 0.25, 1, 1.5, 0.4, 900.0);
            // As job-runner reports: step, train loss, validation loss and accuracy besides the epoch-level fields.
            JobProgress second = new JobProgress(Events.newId(), 1, Instant.now(), "train-1", "alice", 0.5, 2, 0.75,
                    0.875, 1000.0, 40L, 0.75, 0.8125, 0.875);
            probe.send(Topics.JOBS_LIFECYCLE, "train-1", EventCodec.encode(first));
            probe.send(Topics.JOBS_LIFECYCLE, "train-1", EventCodec.encode(second));
            // Another job that reports progress only (no loss, accuracy or throughput): only its progress series.
            probe.send(Topics.JOBS_LIFECYCLE, "train-2", EventCodec.encode(new JobProgress(Events.newId(), 1,
                    Instant.now(), "train-2", "bob", 0.1, null, null, null, null)));
            String body = awaitMetrics(b -> b.contains("gantry_job_epoch{job_id=\"train-1\",user=\"alice\"} 2.0")
                    && b.contains("job_id=\"train-2\""));
            assertEquals(List.of(
                    "gantry_job_accuracy{job_id=\"train-1\",user=\"alice\"} 0.875",
                    "gantry_job_epoch{job_id=\"train-1\",user=\"alice\"} 2.0",
                    "gantry_job_loss{job_id=\"train-1\",split=\"train\",user=\"alice\"} 0.75",
                    "gantry_job_loss{job_id=\"train-1\",split=\"validation\",user=\"alice\"} 0.8125",
                    "gantry_job_progress{job_id=\"train-1\",user=\"alice\"} 0.5",
                    "gantry_job_samples_per_second{job_id=\"train-1\",user=\"alice\"} 1000.0"),
                    seriesOf(body, "train-1"));
            assertEquals(List.of("gantry_job_progress{job_id=\"train-2\",user=\"bob\"} 0.1"), seriesOf(body, "train-2"));

            JobCompleted done = new JobCompleted(Events.newId(), 1, Instant.now(), "train-1", "alice", List.of("n1"),
                    new ResourceAmounts(0, 1000, 512), Instant.now(), 12.0);
            probe.send(Topics.JOBS_LIFECYCLE, "train-1", EventCodec.encode(done));
            String after = awaitMetrics(b -> seriesOf(b, "train-1").isEmpty());
            assertFalse(seriesOf(after, "train-2").isEmpty(), "a running job keeps its series");
        }
    }

    @Test
    void aBadLifecycleRecordIsDeadLetteredAndTheConsumerGoesOn() {
        try (TopicProbe probe = probe()) {
            probe.send(Topics.JOBS_LIFECYCLE, "broken", "{\"type\":\"JobProgress\",\"jobId\":\"broken\"}");
            probe.send(Topics.JOBS_LIFECYCLE, "after-bad", EventCodec.encode(
                    progress("after-bad", "carol", 0.75, 3, 0.2, 0.95, 50.0)));
            List<TopicProbe.Seen> dead = probe.await(Topics.deadLetter("metrics-ingest"), 1, WAIT,
                    s -> "broken".equals(s.key()));
            assertTrue(dead.get(0).headers().getOrDefault("dead-letter-reason", "").length() > 0, dead.toString());
            awaitMetrics(b -> b.contains("gantry_job_progress{job_id=\"after-bad\",user=\"carol\"} 0.75"));
        }
    }
}
