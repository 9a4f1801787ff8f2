package io.gantry.tuner.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Events;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobRejected;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TuningChange;
import io.gantry.events.TuningOptions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The decision on its own, against the real profiles: bounds, "do not tune", the reasons and the gang layout. */
class JobTunerBoundsTest {

    private static JobTuner tuner;

    /** The defaults of application.properties; profiles from the shared traces (surefire sets gantry.shared.dir). */
    static TunerConfig config(Optional<String> profilesDir) {
        return new TunerConfig() {
            public Optional<String> profilesDir() {
                return profilesDir;
            }

            public int nodeGpus() {
                return 8;
            }

            public int nodeCpuCores() {
                return 96;
            }

            public int nodeMemoryGib() {
                return 384;
            }

            public double minScalingEfficiency() {
                return 0.8;
            }

            public Optional<String> sharedDir() {
                return Optional.empty();
            }

            public Optional<String> runnerProfile() {
                return Optional.empty();
            }

            public double rightSizeHeadroom() {
                return 1.2;
            }

            public int rightSizeMinRuns() {
                return 3;
            }

            public Submissions submissions() {
                throw new UnsupportedOperationException("the tuner does not read the REST limits");
            }
        };
    }

    @BeforeAll
    static void load() {
        tuner = new JobTuner(config(Optional.empty()));
        assertEquals(List.of("bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"), List.copyOf(tuner.models()));
    }

    static JobSubmitted job(String model, int tasks, int gpusPerTask, Integer batch, Integer epochs, TuningOptions tuning) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), "j-" + Events.newId(), "alice", "test", model, tasks,
                new ResourceAmounts(gpusPerTask * 1000L, gpusPerTask * 6000L, gpusPerTask * 24_576L), batch, epochs, 3600.0, tuning);
    }

    /** Random jobs of every profiled model within random user bounds: no tuned job ever leaves its bounds. */
    @Test
    void aTunedJobNeverLeavesTheUsersBounds() {
        Random rnd = new Random(5);
        List<String> models = List.copyOf(tuner.models());
        int[] batchChoices = {32, 64, 128, 256, 320, 512, 640, 1024, 2048, 4096, 8192, 32768};
        int tuned = 0;
        for (int i = 0; i < 300; i++) {
            String model = models.get(rnd.nextInt(models.size()));
            int gpusPerTask = 1 + rnd.nextInt(4);
            int tasks = 1 + rnd.nextInt(4);
            int batch = batchChoices[rnd.nextInt(batchChoices.length)];
            Integer min = rnd.nextBoolean() ? null : batch / (1 + rnd.nextInt(4));
            Integer max = rnd.nextBoolean() ? null : batch * (1 + rnd.nextInt(4));
            Integer maxGpus = rnd.nextBoolean() ? null : tasks * gpusPerTask + rnd.nextInt(9);
            Integer epochs = rnd.nextBoolean() ? null : 1 + rnd.nextInt(80);
            JobSubmitted job = job(model, tasks, gpusPerTask, batch, epochs, new TuningOptions(true, min, max, maxGpus));
            JobTuner.Decision d = tuner.decide(job);
            JobTuned t = assertInstanceOf(JobTuner.Tuned.class, d, () -> "a job within its bounds was rejected: " + d).event();
            String what = job + " → " + t;
            int gpus = (int) (t.tasks() * t.perTask().gpuMilli() / 1000);
            assertTrue(min == null || t.batchSize() >= min, what);
            assertTrue(max == null || t.batchSize() <= max, what);
            assertTrue(gpus >= 1 && gpus <= (maxGpus != null ? maxGpus : tasks * gpusPerTask), what);
            assertTrue(t.perTask().gpuMilli() <= job.perTask().gpuMilli(), "a task never grows beyond what was asked: " + what);
            // CPU and memory per GPU are kept (rounded up), never cut below what was asked per GPU.
            assertTrue(t.perTask().cpuMilli() * 1000 >= 6000L * t.perTask().gpuMilli(), what);
            assertTrue(t.perTask().memoryMib() * 1000 >= 24_576L * t.perTask().gpuMilli(), what);
            assertFalse(t.summary().isBlank(), what);
            for (TuningChange c : t.changes()) {
                assertFalse(c.reason().isBlank(), "every change has a reason: " + what);
                assertFalse(c.from().equals(c.to()), "a change changes something: " + what);
            }
            if (!t.changes().isEmpty()) {
                tuned++;
                assertNotNull(t.predictedDurationS(), what);
                assertTrue(t.summary().startsWith("tuned:"), what);
            }
        }
        assertTrue(tuned > 30, "the property must be exercised on tuned jobs, not only pass-throughs: " + tuned);
    }

    @Test
    void doNotTuneIsRespectedExactly() {
        JobSubmitted job = job("cifar10", 4, 2, 2048, 100, new TuningOptions(false, 4096, 8192, 1));
        JobTuned t = assertInstanceOf(JobTuner.Tuned.class, tuner.decide(job)).event();
        assertEquals(List.of(), t.changes());
        assertEquals(job.tasks(), t.tasks());
        assertEquals(job.perTask(), t.perTask());
        assertEquals(job.batchSize(), t.batchSize());
        assertEquals(job.epochs(), t.epochs());
        assertEquals(job.durationS(), t.durationS());
        assertEquals(JobTuner.NOT_TUNED, t.summary());
        assertNotNull(t.predictedDurationS(), "a known model still predicts the run as submitted");
    }

    @Test
    void aBadlyScalingSubmissionIsTunedWithReasonsAndAShorterPrediction() {
        // Measured profile: cifar10 at batch 256 scales badly beyond a few GPUs; the models predict 3 GPUs at batch 512.
        JobSubmitted job = job("cifar10", 8, 1, 256, null, null);
        JobTuner.Tuned d = assertInstanceOf(JobTuner.Tuned.class, tuner.decide(job));
        JobTuned t = d.event();
        assertEquals(JobTuner.Outcome.TUNED, d.outcome());
        assertTrue(t.changes().stream().anyMatch(c -> c.field().equals("gpus")), t.toString());
        assertTrue(t.changes().stream().anyMatch(c -> c.field().equals("tasks")), t.toString());
        assertTrue(d.tunedGpuSeconds() < d.submittedGpuSeconds(), d.toString());
        int gpus = t.tasks();
        TuningChange duration = t.changes().stream().filter(c -> c.field().equals("durationS")).findFirst().orElseThrow();
        double tunedSeconds = d.tunedGpuSeconds() / gpus;
        double submittedSeconds = d.submittedGpuSeconds() / 8;
        assertEquals(tunedSeconds, t.predictedDurationS(), 1e-6);
        assertEquals(3600.0 * tunedSeconds / submittedSeconds, t.durationS(), 1e-6, duration.reason());
        assertTrue(t.summary().contains("instead of"), t.summary());
    }

    @Test
    void jobsTheModelsCannotTunePassThroughWithTheirReason() {
        assertPassesWith(job(null, 1, 1, 128, 10, null), "names no model");
        assertPassesWith(job("gpt-5", 1, 1, 128, 10, null), "no measured profile for model 'gpt-5' (known: bert, cifar10");
        assertPassesWith(job("cifar10", 1, 1, null, 10, null), "no batch size");
        assertPassesWith(job("cifar10", 1, 0, 128, 10, null), "asks for no GPU");
        JobSubmitted half = new JobSubmitted(Events.newId(), 1, Instant.now(), "half", "alice", null, "cifar10", 1,
                new ResourceAmounts(500, 1000, 1024), 128, 10, null, null);
        assertPassesWith(half, "not a whole number of GPUs");
    }

    @Test
    void withoutProfilesEveryJobPassesThroughAndSaysWhere() {
        JobTuner none = new JobTuner(config(Optional.of("/nonexistent/app-profiles")));
        JobTuned t = assertInstanceOf(JobTuner.Tuned.class, none.decide(job("cifar10", 2, 1, 256, null, null))).event();
        assertTrue(t.summary().contains("no app profiles are loaded (none at /nonexistent/app-profiles)"), t.summary());
    }

    @Test
    void gangsKeepTheSubmittersShapeAndCpuAndMemoryPerGpu() {
        ResourceAmounts four = new ResourceAmounts(4000, 16_000, 65_536);
        assertEquals(new GangShape(3, four), GangShape.of(12, four));
        assertEquals(new GangShape(2, new ResourceAmounts(3000, 12_000, 49_152)), GangShape.of(6, four));
        assertEquals(new GangShape(1, new ResourceAmounts(3000, 12_000, 49_152)), GangShape.of(3, four));
        assertEquals(new GangShape(7, new ResourceAmounts(1000, 4000, 16_384)), GangShape.of(7, four));
        assertEquals(new GangShape(1, new ResourceAmounts(1000, 334, 1)), GangShape.of(1, new ResourceAmounts(3000, 1001, 3)),
                "rounded up: a GPU never gets less CPU or memory than asked per GPU");
    }

    private static void assertPassesWith(JobSubmitted job, String reason) {
        JobTuner.Tuned d = assertInstanceOf(JobTuner.Tuned.class, tuner.decide(job));
        assertEquals(JobTuner.Outcome.UNCHANGED, d.outcome());
        assertTrue(d.event().summary().startsWith("not tuned:") && d.event().summary().contains(reason), d.event().summary());
        assertEquals(job.batchSize(), d.event().batchSize());
        assertEquals(job.tasks(), d.event().tasks());
    }

    /** Whether Gantry may stop a job is the submitter's (or the pods' owner's) call: the tuner passes it on. */
    @Test
    void preemptibleIsPassedOnWhetherTheJobIsTunedOrNot() {
        for (String model : List.of("cifar10", "unknown-model")) {
            JobSubmitted asked = job(model, 1, 1, 128, 10, null);
            JobSubmitted notPreemptible = new JobSubmitted(asked.eventId(), 1, asked.occurredAt(), asked.jobId(),
                    asked.user(), asked.jobName(), model, 1, asked.perTask(), 128, 10, 3600.0, null, false);
            assertFalse(assertInstanceOf(JobTuner.Tuned.class, tuner.decide(notPreemptible)).event().preemptible(), model);
            assertTrue(assertInstanceOf(JobTuner.Tuned.class, tuner.decide(asked)).event().preemptible(), model);
        }
    }

    /**
     * A submission decided again (the tuner crashed after sending, before committing) yields the very same event id, so
     * consumers see a redelivery; distinct submissions, even of one job id, get distinct ids.
     */
    @Test
    void theDecisionsEventIdDerivesFromTheSubmissionsOwn() {
        JobSubmitted tunable = job("cifar10", 8, 1, 256, null, new TuningOptions(true, 128, 1024, 8));
        JobTuned first = assertInstanceOf(JobTuner.Tuned.class, tuner.decide(tunable)).event();
        JobTuned again = assertInstanceOf(JobTuner.Tuned.class, tuner.decide(tunable)).event();
        assertFalse(first.changes().isEmpty(), "tuned, not passed through");
        assertEquals(first.eventId(), again.eventId());
        assertEquals(JobTuner.tunedId(tunable.eventId()), first.eventId());
        JobSubmitted passed = job(null, 1, 1, null, null, null);
        assertEquals(JobTuner.tunedId(passed.eventId()),
                assertInstanceOf(JobTuner.Tuned.class, tuner.decide(passed)).event().eventId(), "passed through");
        JobSubmitted sameJobAgain = new JobSubmitted(Events.newId(), 1, Instant.now(), tunable.jobId(), "alice", "test",
                "cifar10", 8, tunable.perTask(), 256, null, 3600.0, tunable.tuning());
        assertNotEquals(first.eventId(), ((JobTuner.Tuned) tuner.decide(sameJobAgain)).event().eventId());

        JobSubmitted tooBig = job("cifar10", 1, 16, 256, null, null);
        JobRejected rejected = assertInstanceOf(JobTuner.Rejected.class, tuner.decide(tooBig)).event();
        assertEquals(JobTuner.rejectedId(tooBig.eventId()), rejected.eventId());
        assertEquals(rejected.eventId(), ((JobTuner.Rejected) tuner.decide(tooBig)).event().eventId());
    }

    /** A rejection of an invalid submission is itself valid: it carries only names the contract allows. */
    @Test
    void aRejectionOfAnInvalidSubmissionCarriesOnlyValidNames() {
        InvalidEventException e = new InvalidEventException("user", "must be at most 200 characters, was 100000");
        String eventId = Events.newId();
        String hugeUser = "{\"type\":\"JobSubmitted\",\"eventId\":\"" + eventId + "\",\"jobId\":\"j-1\",\"user\":\""
                + "u".repeat(100_000) + "\"}";
        JobRejected r = tuner.rejectionOfInvalid(hugeUser, e).orElseThrow();
        assertNull(r.user());
        assertEquals("j-1", r.jobId());
        assertEquals(JobTuner.rejectedId(eventId), r.eventId());
        assertEquals(List.of(), r.violations());
        assertTrue(tuner.rejectionOfInvalid(hugeUser.replace("\"j-1\"", "\"../x\""), e).isEmpty(),
                "a job id the contract refuses names no job to reject");
        assertEquals("alice", tuner.rejectionOfInvalid(hugeUser.replace("u".repeat(100_000), "alice"), e).orElseThrow().user());
    }
}
