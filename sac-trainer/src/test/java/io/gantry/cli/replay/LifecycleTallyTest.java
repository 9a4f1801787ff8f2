package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobSubmitted;
import io.gantry.training.model.RealJobSet;
import io.gantry.events.JobStarted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingTarget;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LifecycleTallyTest {

    private static final Instant SUBMITTED = Instant.parse("2026-01-02T03:00:00Z");
    private static final ResourceAmounts PER_TASK = new ResourceAmounts(1000, 1000, 1024);

    private final LifecycleTally tally = new LifecycleTally(1000);

    private static String started(String jobId, int attempt, Instant at) {
        return EventCodec.encode(new JobStarted(Events.newId(), 1, at, jobId, "alice", List.of("n1"), PER_TASK,
                SUBMITTED, "v1", attempt));
    }

    private static String preempted(String jobId, int attempt, Instant at) {
        return EventCodec.encode(new JobPreempted(Events.newId(), 1, at, jobId, "alice", List.of("n1"), PER_TASK,
                "preempted to make room for job urgent", attempt, 30.0));
    }

    private static String completed(String jobId, Instant at) {
        return EventCodec.encode(new JobCompleted(Events.newId(), 1, at, jobId, "alice", List.of("n1"), PER_TASK,
                SUBMITTED, 60.0));
    }

    @Test
    void aJobThatStartsAgainAfterAPreemptionIsNoDuplicate() {
        tally.submitted("job-1");
        tally.accept(started("job-1", 1, SUBMITTED.plusMillis(40)));
        assertEquals(1, tally.snapshot().running());
        tally.accept(preempted("job-1", 1, SUBMITTED.plusMillis(70)));
        assertEquals(0, tally.snapshot().running(), "a preempted job waits again");
        assertEquals(1, tally.snapshot().pending());
        tally.accept(started("job-1", 2, SUBMITTED.plusMillis(900)));
        tally.accept(completed("job-1", SUBMITTED.plusSeconds(1)));

        LifecycleTally.Snapshot s = tally.snapshot();
        assertEquals(0, s.duplicates());
        assertEquals(1, s.started(), "jobs started at least once");
        assertEquals(1, s.preempted());
        assertEquals(1, s.completed());
        assertEquals(0, s.running());
        assertEquals(0, s.pending());
        assertEquals(40.0, s.p99SubmitToBindMs(), 1e-9, "from the first start only");
        assertTrue(tally.allDone());
    }

    @Test
    void aSecondStartWithoutAPreemptionBetweenIsADuplicate() {
        tally.submitted("job-2");
        tally.accept(started("job-2", 1, SUBMITTED.plusMillis(10)));
        tally.accept(started("job-2", 1, SUBMITTED.plusMillis(20)));
        assertEquals(1, tally.snapshot().duplicates());
        assertEquals(1, tally.snapshot().started());
        assertEquals(0, tally.snapshot().preempted());
    }

    @Test
    void theSameRecordReadAgainIsARedeliveryAndOnlyASecondEventIsADuplicate() {
        tally.submitted("job-3");
        tally.submitted("job-4");
        String start = started("job-3", 1, SUBMITTED.plusMillis(10));
        String progress = EventCodec.encode(new JobProgress(Events.newId(), 1, SUBMITTED.plusMillis(500), "job-3",
                "alice", 0.5, 1, 0.4, 0.7, 100.0));
        String end = completed("job-3", SUBMITTED.plusSeconds(1));
        for (String record : List.of(start, start, progress, progress, end, end)) {
            tally.accept(record);
        }
        tally.accept(started("job-4", 1, SUBMITTED.plusMillis(10)));
        String second = started("job-4", 1, SUBMITTED.plusMillis(20));
        tally.accept(second);

        LifecycleTally.Snapshot s = tally.snapshot();
        assertEquals(3, s.redelivered(), "each of job-3's records twice");
        assertEquals(1, s.completed());
        assertEquals(1, s.duplicates(), "job-4's second start, a new event");
        assertEquals(1, s.duplicateEvents().size());
        String d = s.duplicateEvents().get(0);
        assertTrue(d.startsWith("job-4: a second start, JobStarted (event "
                + EventCodec.decode(second, JobStarted.class).eventId() + " at 2026-01-02T03:00:00.020Z; the first, "
                + "JobStarted, was event "), d);
    }

    private static String result(String jobId, double accuracy) {
        return EventCodec.encode(new JobResult(Events.newId(), 1, SUBMITTED, jobId, "ada", 1, accuracy, 0.2,
                new int[][]{{1}}, 3, 3, 1L << 28, 2.0, 3.0, 900.0, "0123456789abcdef", 32, 0.005));
    }

    @Test
    void realJobsAreCountedWithTheirResultsAndTargets() {
        tally.submitted("trace-1");
        tally.submitted("real-a");
        tally.real("real-a", 0.95);
        tally.submitted("real-b");
        tally.real("real-b", 0.9);
        tally.accept(started("real-a", 1, SUBMITTED.plusMillis(5)));
        assertEquals(1, tally.snapshot().realRunning());
        tally.accept(result("real-a", 0.97));
        tally.accept(completed("real-a", SUBMITTED.plusSeconds(4)));
        tally.accept(started("real-b", 1, SUBMITTED.plusMillis(5)));
        tally.accept(result("real-b", 0.85));
        tally.accept(completed("real-b", SUBMITTED.plusSeconds(5)));
        LifecycleTally.Snapshot s = tally.snapshot();
        assertEquals(2, s.realJobs());
        assertEquals(2, s.realCompleted());
        assertEquals(1, s.realTargetReached(), "0.85 is below its 0.9");
        assertEquals(0.91, s.realMeanTestAccuracy(), 1e-12);
        assertEquals(0.85, s.realMinTestAccuracy(), 0.0);
        assertEquals(0, s.duplicates(), "a result is neither a start nor an end");
        assertEquals(null, new LifecycleTally(1).snapshot().realMeanTestAccuracy());
    }

    @Test
    void everyRealJobOfTheSetIsAValidSubmissionWithItsSeed() {
        List<RealJobSet.RealJob> set = RealJobSet.first(8, 1);
        for (int k = 0; k < set.size(); k++) {
            JobSubmitted e = ReplayCommand.realEvent(k, set.get(k), Instant.now());
            assertEquals(e, EventCodec.decode(EventCodec.encode(e)));
            assertEquals(1 + k, e.training().seed());
            assertEquals(null, e.durationS(), "a real job runs as long as its training takes");
        }
        assertEquals(List.of("digits", "iris", "wine", "breast-cancer"),
                set.subList(0, 4).stream().map(r -> r.spec().dataset()).toList());
    }

    private static String progress(String jobId, int epoch, long step, double accuracy) {
        return EventCodec.encode(new JobProgress(Events.newId(), 1, SUBMITTED, jobId, "ada", Math.min(1.0, epoch / 3.0),
                epoch, 0.3, accuracy, 500.0, step, 0.3, 0.35, accuracy));
    }

    private static String result(String jobId, double accuracy, int epochsRun, Integer targetReachedEpoch) {
        return EventCodec.encode(new JobResult(Events.newId(), 1, SUBMITTED, jobId, "ada", 2, accuracy, 0.2,
                new int[][]{{1}}, targetReachedEpoch, epochsRun, 1L << 28, 2.0, 3.0, 900.0, "0123456789abcdef", 32,
                0.005));
    }

    /** Submits, starts and completes a real job whose lifecycle holds {@code progress} and a result of 3 epochs. */
    private void realRun(String jobId, String metric, double testAccuracy, String... progress) {
        tally.submitted(jobId);
        tally.real(jobId, 0.9, metric);
        tally.accept(started(jobId, 1, SUBMITTED.plusMillis(5)));
        for (String p : progress) {
            tally.accept(p);
        }
        tally.accept(result(jobId, testAccuracy, 3, 3));
        tally.accept(completed(jobId, SUBMITTED.plusSeconds(3)));
    }

    @Test
    void aRealJobPreemptedAndResumedHoldsItsProgressOverBothAttempts() {
        tally.submitted("real-p");
        tally.real("real-p", 0.9, TrainingTarget.TEST_ACCURACY);
        tally.accept(started("real-p", 1, SUBMITTED.plusMillis(5)));
        tally.accept(progress("real-p", 0, 10, 0.2));   // mid-epoch 1: validation accuracy
        tally.accept(progress("real-p", 1, 20, 0.6));   // end of epoch 1: test accuracy
        tally.accept(progress("real-p", 1, 25, 0.62));  // mid-epoch 2
        tally.accept(preempted("real-p", 1, SUBMITTED.plusMillis(70)));
        tally.accept(started("real-p", 2, SUBMITTED.plusMillis(900)));
        tally.accept(progress("real-p", 1, 25, 0.62));  // the resumed attempt repeats where it stopped: not a step back
        tally.accept(progress("real-p", 2, 40, 0.8));
        tally.accept(progress("real-p", 3, 60, 0.93));
        tally.accept(result("real-p", 0.93, 3, 3));
        tally.accept(completed("real-p", SUBMITTED.plusSeconds(2)));

        LifecycleTally.Snapshot s = tally.snapshot();
        assertEquals(1, s.realProgressComplete());
        assertEquals(List.of(), s.realProgressProblems());
    }

    @Test
    void aValidationTargetDoesNotCompareTheLastProgressWithTheTestAccuracy() {
        realRun("real-v", TrainingTarget.VALIDATION_ACCURACY, 0.91,
                progress("real-v", 1, 10, 0.5), progress("real-v", 2, 20, 0.7), progress("real-v", 3, 30, 0.92));
        assertEquals(1, tally.snapshot().realProgressComplete());
        assertEquals(List.of(), tally.snapshot().realProgressProblems());
    }

    @Test
    void progressMissingAnEpochOutOfOrderOrDisagreeingWithTheResultIsAProblem() {
        realRun("real-1-missing", TrainingTarget.TEST_ACCURACY, 0.93,
                progress("real-1-missing", 1, 10, 0.5), progress("real-1-missing", 3, 30, 0.93));
        realRun("real-2-order", TrainingTarget.TEST_ACCURACY, 0.93,
                progress("real-2-order", 1, 10, 0.5), progress("real-2-order", 2, 20, 0.7),
                progress("real-2-order", 2, 15, 0.7), progress("real-2-order", 3, 30, 0.93));
        realRun("real-3-epoch-back", TrainingTarget.TEST_ACCURACY, 0.93,
                progress("real-3-epoch-back", 1, 10, 0.5), progress("real-3-epoch-back", 2, 20, 0.7),
                progress("real-3-epoch-back", 3, 30, 0.93), progress("real-3-epoch-back", 2, 30, 0.93));
        realRun("real-4-accuracy", TrainingTarget.TEST_ACCURACY, 0.93,
                progress("real-4-accuracy", 1, 10, 0.5), progress("real-4-accuracy", 2, 20, 0.7),
                progress("real-4-accuracy", 3, 30, 0.92));
        realRun("real-5-past", TrainingTarget.TEST_ACCURACY, 0.93,
                progress("real-5-past", 1, 10, 0.5), progress("real-5-past", 2, 20, 0.7),
                progress("real-5-past", 3, 30, 0.93), progress("real-5-past", 4, 40, 0.93));
        realRun("real-6-none", TrainingTarget.TEST_ACCURACY, 0.93);
        realRun("real-7-ok", TrainingTarget.TEST_ACCURACY, 0.93,
                progress("real-7-ok", 1, 10, 0.5), progress("real-7-ok", 2, 20, 0.7),
                progress("real-7-ok", 3, 30, 0.93));

        LifecycleTally.Snapshot s = tally.snapshot();
        assertEquals(7, s.realCompleted());
        assertEquals(1, s.realProgressComplete(), "only real-7-ok");
        assertEquals(List.of(
                "real-1-missing: no progress at epoch 2 of 3",
                "real-2-order: progress #3 (epoch 2, step 15) after (epoch 2, step 20)",
                "real-3-epoch-back: progress #4 (epoch 2, step 30) after (epoch 3, step 30)",
                "real-4-accuracy: last progress accuracy 0.92 but result testAccuracy 0.93",
                "real-5-past: progress #4 at epoch 4, past epochsRun 3"),
                s.realProgressProblems(), "the first " + LifecycleTally.MAX_PROBLEMS + ", in job order");
    }

    @Test
    void aCompletedRealJobWithoutAResultIsAProblem() {
        tally.submitted("real-x");
        tally.real("real-x", 0.9);
        tally.accept(started("real-x", 1, SUBMITTED.plusMillis(5)));
        tally.accept(progress("real-x", 1, 10, 0.95));
        tally.accept(completed("real-x", SUBMITTED.plusSeconds(1)));
        assertEquals(0, tally.snapshot().realProgressComplete());
        assertEquals(List.of("real-x: completed without a JobResult"), tally.snapshot().realProgressProblems());
    }
}
