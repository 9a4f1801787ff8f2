package io.gantry.tuner;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Re-tunes of running real jobs through the real broker: an admin's {@code POST /jobs/{id}/retune} and the rule at an
 * epoch end both become a {@code JobTuned} update (the next revision, the new batch size, the learning rate scaled
 * with it) on {@code gantry.jobs.tuned}; bad requests are refused with the field and the reason.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class LiveRetuneTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** An MLP on iris with {@code hidden} units (each test its own model, so measured runs do not mix), SGD. */
    private static TrainingSpec spec(int hidden) {
        return RealJobTuningPipelineTest.spec(hidden, 16, 0.05, 30);
    }

    private static JobTuned submitAndAwaitTuned(TopicProbe probe, String id, TrainingSpec s, TuningOptions tuning) {
        JobSubmitted job = new JobSubmitted(Events.newId(), 1, Instant.now(), id, "alice", id, null, 1,
                new ResourceAmounts(0, 2000, 4096), null, null, null, tuning, true, s);
        probe.send(Topics.JOBS_SUBMITTED, id, EventCodec.encode(job));
        return awaitRevision(probe, id, 0);
    }

    private static JobTuned awaitRevision(TopicProbe probe, String id, int revision) {
        return EventCodec.decode(probe.await(Topics.JOBS_TUNED, 1, WAIT, x -> x.key().equals(id)
                && EventCodec.decode(x.value(), JobTuned.class).revision() == revision).get(0).value(), JobTuned.class);
    }

    private static io.restassured.response.ValidatableResponse retune(String token, String jobId, String body) {
        return as(token).body(body).post("/jobs/" + jobId + "/retune").then();
    }

    @Test
    void anAdminReTunesARunningJobAndBadRequestsAreRefusedWithTheirField() {
        TrainingSpec s = spec(31);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            submitAndAwaitTuned(probe, "rt-rest", s, new TuningOptions(true, 8, 128, null));
            String admin = TestTokens.admin();
            retune(TestTokens.user("alice"), "rt-rest", "{\"batchSize\":64}").statusCode(403);
            retune(admin, "rt-rest", "{\"batchSize\":64,\"reason\":\"noise scale grew\"}").statusCode(202)
                    .body("revision", equalTo(1)).body("batchSize", equalTo(64)).body("learningRate", equalTo(0.2f))
                    .body("topic", equalTo(Topics.JOBS_TUNED)).body("gpus", equalTo(0.0f));
            JobTuned update = awaitRevision(probe, "rt-rest", 1);
            assertTrue(update.retune());
            assertEquals(s.with(64, 0.2, 30), update.training(), "sgd: the learning rate scales with the batch");
            assertEquals("training.batchSize", update.changes().get(0).field());
            assertTrue(update.changes().get(0).reason().contains("noise scale grew"), update.changes().toString());
            assertTrue(update.violations().isEmpty(), update.violations().toString());

            retune(admin, "rt-rest", "{\"batchSize\":64}").statusCode(409).body("field", equalTo("body"))
                    .body("reason", containsString("revision 1 already has batch size 64 and 0 GPUs per task"));
            retune(admin, "rt-rest", "{\"batchSize\":64,\"gpus\":0}").statusCode(409).body("field", equalTo("body"));
            retune(admin, "rt-rest", "{\"batchSize\":256}").statusCode(400).body("field", equalTo("batchSize"));
            retune(admin, "rt-rest", "{\"batchSize\":\"big\"}").statusCode(400).body("field", equalTo("batchSize"));
            retune(admin, "rt-rest", "{}").statusCode(400).body("field", equalTo("body"))
                    .body("reason", containsString("needs batchSize, gpus or both"));
            retune(admin, "rt-rest", "{\"batchSize\":null,\"gpus\":null}").statusCode(400)
                    .body("field", equalTo("body"));
            retune(admin, "rt-rest", "{\"batchSize\":32,\"colour\":1}").statusCode(400).body("field", equalTo("colour"))
                    .body("reason", equalTo("is not a field of a re-tune request (batchSize, gpus, reason)"));
            retune(admin, "rt-rest", "{\"gpus\":1.5}").statusCode(400).body("field", equalTo("gpus"))
                    .body("reason", equalTo("must be a whole number of GPUs per task from 0 to 64, was 1.5"));
            retune(admin, "rt-rest", "{\"gpus\":-1}").statusCode(400).body("field", equalTo("gpus"))
                    .body("reason", equalTo("must be a whole number of GPUs per task from 0 to 64, was -1"));
            retune(admin, "rt-rest", "{\"gpus\":65}").statusCode(400).body("field", equalTo("gpus"))
                    .body("reason", equalTo("must be a whole number of GPUs per task from 0 to 64, was 65"));
            retune(admin, "rt-rest", "{\"gpus\":\"two\"}").statusCode(400).body("field", equalTo("gpus"));
            retune(admin, "rt-rest", "{\"batchSize\":32,\"gpus\":1.5}").statusCode(400).body("field", equalTo("gpus"));
            retune(admin, "rt-rest", "[").statusCode(400);
            retune(admin, "no-such-job", "{\"batchSize\":32}").statusCode(404).body("field", equalTo("jobId"));

            retune(admin, "rt-rest", "{\"batchSize\":32}").statusCode(202).body("revision", equalTo(2));
            JobTuned second = awaitRevision(probe, "rt-rest", 2);
            assertEquals(32, second.training().batchSize(), "each update builds on the last");

            // GPUs only: the new request per task, the training as it was.
            retune(admin, "rt-rest", "{\"gpus\":2,\"reason\":\"a larger model\"}").statusCode(202)
                    .body("revision", equalTo(3)).body("gpus", equalTo(2.0f)).body("batchSize", equalTo(32))
                    .body("learningRate", equalTo(second.training().learningRate().floatValue()));
            JobTuned gpus = awaitRevision(probe, "rt-rest", 3);
            assertEquals(new ResourceAmounts(2000, 2000, 4096), gpus.perTask(), "vCPUs and memory kept");
            assertEquals(second.training(), gpus.training(), "the batch and learning rate unchanged");
            assertEquals(1, gpus.changes().size(), gpus.changes().toString());
            assertEquals(new TuningChange("perTask.gpuMilli", "0", "2000", "re-tuned on request: a larger model; the "
                    + "scheduler stops the job (checkpoint) and places it again with the new request"),
                    gpus.changes().get(0));
            assertEquals("revision 3: GPUs per task 0 → 2 while it runs", gpus.summary());

            // Both at once: one revision with both changes.
            retune(admin, "rt-rest", "{\"batchSize\":64,\"gpus\":1}").statusCode(202)
                    .body("revision", equalTo(4)).body("gpus", equalTo(1.0f)).body("batchSize", equalTo(64))
                    .body("learningRate", equalTo(0.2f));
            JobTuned both = awaitRevision(probe, "rt-rest", 4);
            assertEquals(s.with(64, 0.2, 30), both.training());
            assertEquals(1000, both.perTask().gpuMilli());
            assertEquals(List.of("training.batchSize", "training.learningRate", "perTask.gpuMilli"),
                    both.changes().stream().map(TuningChange::field).toList());
            assertEquals("revision 4: batch 32 → 64, GPUs per task 2 → 1 while it runs", both.summary());
            retune(admin, "rt-rest", "{\"batchSize\":64,\"gpus\":1}").statusCode(409).body("field", equalTo("body"));

            JobCompleted done = new JobCompleted(Events.newId(), 1, Instant.now(), "rt-rest", "alice",
                    List.of("sim-node-01"), new ResourceAmounts(0, 2000, 4096), Instant.now(), 30.0);
            probe.send(Topics.JOBS_LIFECYCLE, "rt-rest", EventCodec.encode(done));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (retune(admin, "rt-rest", "{\"batchSize\":16}").extract().statusCode() != 404) {
                assertTrue(System.nanoTime() < deadline, "an ended job is re-tuned no more");
            }
        }
    }

    @Test
    void atAnEpochEndTheRuleReTunesWhenRunsMeasuredSinceThenPickAnotherBatch() throws InterruptedException {
        TrainingSpec s = spec(37);
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            JobTuned queued = submitAndAwaitTuned(probe, "rt-rule", s, null);
            assertEquals(s, queued.training(), "no run of the model measured yet: as submitted");
            // An admin gave it 2 GPUs per task first (revision 1): the rule must keep them.
            retune(TestTokens.admin(), "rt-rule", "{\"gpus\":2}").statusCode(202).body("revision", equalTo(1));
            // While it runs, another run of the model at batch 64 (4 × the rate) reaches the target: now measured.
            JobResult measured = new JobResult(Events.newId(), 1, Instant.now(), "rt-rule-other", "alice", 1, 0.95, 0.2,
                    new int[][] {{10, 0, 0}, {0, 9, 1}, {0, 1, 9}}, 12, 12, 300L << 20, 4.0, 4.0, 300.0, s.modelKey(),
                    64, 0.2, s.optimizer(), s.target());
            probe.send(Topics.JOBS_LIFECYCLE, measured.jobId(), EventCodec.encode(measured));
            // Mid-epoch progress is not a boundary; the end of epoch 2 of 30 is.
            long deadline = System.nanoTime() + WAIT.toNanos();
            int epoch = 1;
            while (probe.readAll(Topics.JOBS_TUNED).stream().noneMatch(x -> x.key().equals("rt-rule")
                    && EventCodec.decode(x.value(), JobTuned.class).revision() == 2)) {
                assertTrue(System.nanoTime() < deadline, "no re-tune within " + WAIT);
                probe.send(Topics.JOBS_LIFECYCLE, "rt-rule", EventCodec.encode(progress(epoch, (epoch + 0.5) / 30)));
                probe.send(Topics.JOBS_LIFECYCLE, "rt-rule", EventCodec.encode(progress(epoch, epoch / 30.0)));
                epoch++;
                Thread.sleep(300);
            }
            JobTuned update = awaitRevision(probe, "rt-rule", 2);
            assertEquals(64, update.training().batchSize());
            assertEquals(0.2, update.training().learningRate(), 1e-12);
            assertTrue(update.changes().get(0).reason().contains("re-tuned at the end of epoch"), update.changes().toString());
            assertEquals(new ResourceAmounts(2000, 2000, 4096), update.perTask(), "the rule keeps the job's GPUs");
            assertEquals(List.of("training.batchSize", "training.learningRate"),
                    update.changes().stream().map(TuningChange::field).toList(), "the rule re-tunes the batch only");
        }
    }

    private static JobProgress progress(int epoch, double progress) {
        return new JobProgress(Events.newId(), 1, Instant.now(), "rt-rule", "alice", progress, epoch, 0.5, 0.8, 100.0,
                (long) (progress * 30 * 7), 0.5, 0.5, 0.8, 16);
    }
}
