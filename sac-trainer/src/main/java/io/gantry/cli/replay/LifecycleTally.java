package io.gantry.cli.replay;

import io.gantry.events.EventCodec;
import io.gantry.events.InvalidEventException;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobRejected;
import io.gantry.events.JobResult;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.TrainingTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts what happened to the jobs one replay submitted, from their lifecycle events. A job that reaches two
 * terminal states, or starts again without being preempted since its last start, is a duplicate: the pipeline
 * promises neither happens. A preempted job goes back to the queue and may start again.
 *
 * <p>The topic is read as every service reads it: at least once, so a record seen again under an event id already
 * read (a producer's re-send after a lost answer, say, which Kafka stores as a second record) is a redelivery, counted
 * apart and otherwise skipped, as each service's {@code EventIntake} skips it. Only a second event is a duplicate.
 */
final class LifecycleTally {

    private final double speedup;
    private final Set<String> submitted = new HashSet<>();
    /** Jobs started at least once. */
    private final Set<String> started = new HashSet<>();
    /** Jobs whose last start has not been preempted, with that start: a start now would be a second one. */
    private final Map<String, JobStarted> startedNotPreempted = new HashMap<>();
    /** Jobs holding resources now: started, and neither preempted nor ended since. */
    private final Set<String> runningNow = new HashSet<>();
    /** Each ended job's terminal event. */
    private final Map<String, LifecycleEvent> terminal = new HashMap<>();
    /** Ids of the submitted jobs' events read so far. */
    private final Set<String> eventIds = new HashSet<>();
    /** What each duplicate was, the first {@link #MAX_DUPLICATES_LISTED}: which job, which events. */
    private final List<String> duplicateEvents = new ArrayList<>();
    private final List<Double> jctS = new ArrayList<>();
    private final List<Double> submitToBindMs = new ArrayList<>();
    private int completed;
    private int failed;
    private int rejected;
    private int preempted;
    private int duplicates;
    private int redelivered;
    private int unreadable;
    /** Real jobs: their target test accuracy; and the test accuracy each reported. */
    private final Map<String, Double> realTargets = new HashMap<>();
    private final Map<String, Double> realAccuracy = new HashMap<>();
    private final Set<String> realCompleted = new HashSet<>();
    /** Real jobs: their target metric ({@link TrainingTarget#TEST_ACCURACY} or validation accuracy). */
    private final Map<String, String> realMetrics = new HashMap<>();
    /** Real jobs: their progress events in the order the lifecycle topic holds them, over all attempts. */
    private final Map<String, List<Progress>> realProgress = new HashMap<>();
    /** Real jobs: their last result. */
    private final Map<String, JobResult> realResults = new HashMap<>();

    /** How many problems {@link Snapshot#realProgressProblems()} lists at most. */
    static final int MAX_PROBLEMS = 5;
    /** How many duplicates {@link Snapshot#duplicateEvents()} describes at most. */
    static final int MAX_DUPLICATES_LISTED = 20;

    LifecycleTally(double speedup) {
        this.speedup = speedup;
    }

    /** Marks a submitted job as a real training job with its target test accuracy. */
    synchronized void real(String jobId, double targetTestAccuracy) {
        real(jobId, targetTestAccuracy, TrainingTarget.TEST_ACCURACY);
    }

    /** Marks a submitted job as a real training job with its target value and metric. */
    synchronized void real(String jobId, double target, String metric) {
        realTargets.put(jobId, target);
        realMetrics.put(jobId, metric);
    }

    synchronized void submitted(String jobId) {
        submitted.add(jobId);
    }

    synchronized void accept(String json) {
        LifecycleEvent e;
        try {
            e = EventCodec.decode(json, LifecycleEvent.class);
        } catch (InvalidEventException ex) {
            unreadable++;
            return;
        }
        if (!submitted.contains(e.jobId())) {
            return; // another replay's or another user's job
        }
        if (!eventIds.add(e.eventId())) {
            redelivered++;
            return;
        }
        if (e instanceof JobResult r) {
            // One per finished run; the last one counts.
            realAccuracy.put(r.jobId(), r.testAccuracy());
            realResults.put(r.jobId(), r);
            return;
        }
        if (e instanceof JobProgress p) {
            if (realTargets.containsKey(p.jobId())) {
                realProgress.computeIfAbsent(p.jobId(), k -> new ArrayList<>())
                        .add(new Progress(p.epoch(), p.step(), p.accuracy()));
            }
            return;
        }
        if (e instanceof JobStarted s) {
            runningNow.add(s.jobId());
            JobStarted previous = startedNotPreempted.put(s.jobId(), s);
            if (previous != null) {
                duplicate(previous, s);
            } else if (started.add(s.jobId()) && s.submittedAt() != null) {
                // The first start only: a restart after a preemption waited for room again, not for the pipeline.
                submitToBindMs.add(Duration.between(s.submittedAt(), s.occurredAt()).toNanos() / 1e6);
            }
            return;
        }
        if (e instanceof JobPreempted) {
            startedNotPreempted.remove(e.jobId());
            runningNow.remove(e.jobId());
            preempted++;
            return;
        }
        if (!e.terminal()) {
            return;
        }
        runningNow.remove(e.jobId());
        LifecycleEvent first = terminal.putIfAbsent(e.jobId(), e);
        if (first != null) {
            duplicate(first, e);
            return;
        }
        if (e instanceof JobCompleted c) {
            completed++;
            if (realTargets.containsKey(c.jobId())) {
                realCompleted.add(c.jobId());
            }
            if (c.submittedAt() != null) {
                // Wall time in the accelerated cluster, scaled back to the trace's seconds.
                jctS.add(Duration.between(c.submittedAt(), c.occurredAt()).toNanos() / 1e9 * speedup);
            }
        } else if (e instanceof JobFailed) {
            failed++;
        } else if (e instanceof JobRejected) {
            rejected++;
        }
    }

    /** Counts {@code second}, a second start or end the pipeline made, as a duplicate of {@code first}. */
    private void duplicate(LifecycleEvent first, LifecycleEvent second) {
        duplicates++;
        if (duplicateEvents.size() >= MAX_DUPLICATES_LISTED) {
            return;
        }
        duplicateEvents.add(second.jobId() + ": a second " + (second instanceof JobStarted ? "start" : "end") + ", "
                + second.type() + " (event " + second.eventId() + " at " + second.occurredAt() + "; the first, "
                + first.type() + ", was event " + first.eventId() + " at " + first.occurredAt() + ")");
    }

    synchronized boolean allDone() {
        return !submitted.isEmpty() && terminal.size() == submitted.size();
    }

    synchronized Snapshot snapshot() {
        List<Double> accuracies = new ArrayList<>();
        int reached = 0;
        int realRunning = 0;
        for (String id : realCompleted) {
            Double a = realAccuracy.get(id);
            if (a != null) {
                accuracies.add(a);
                reached += a >= realTargets.get(id) ? 1 : 0;
            }
        }
        for (String id : realTargets.keySet()) {
            realRunning += runningNow.contains(id) ? 1 : 0;
        }
        int progressComplete = 0;
        List<String> problems = new ArrayList<>();
        for (String id : realCompleted.stream().sorted().toList()) {
            String problem = progressProblem(id);
            if (problem == null) {
                progressComplete++;
            } else if (problems.size() < MAX_PROBLEMS) {
                problems.add(id + ": " + problem);
            }
        }
        return new Snapshot(submitted.size(), started.size(), runningNow.size(), completed, failed, rejected, preempted,
                duplicates, redelivered, unreadable, mean(jctS), percentile(submitToBindMs, 0.50),
                percentile(submitToBindMs, 0.99),
                realTargets.size(), realRunning, realCompleted.size(), reached,
                accuracies.isEmpty() ? null : mean(accuracies),
                accuracies.isEmpty() ? null : Collections.min(accuracies), progressComplete, List.copyOf(problems),
                List.copyOf(duplicateEvents));
    }

    /** One {@code JobProgress} of a real job, as far as the progress check reads it. */
    record Progress(Integer epoch, Long step, Double accuracy) {
    }

    /** The first thing wrong with a completed real job's progress against its result; null when nothing is. */
    private String progressProblem(String jobId) {
        JobResult result = realResults.get(jobId);
        if (result == null) {
            return "completed without a JobResult";
        }
        List<Progress> progress = realProgress.getOrDefault(jobId, List.of());
        int epochsRun = result.epochsRun();
        boolean[] seen = new boolean[epochsRun + 1];
        Progress previous = null;
        for (int i = 0; i < progress.size(); i++) {
            Progress p = progress.get(i);
            if (p.epoch() == null || p.step() == null) {
                return "progress #" + (i + 1) + " has no " + (p.epoch() == null ? "epoch" : "step");
            }
            if (p.epoch() > epochsRun) {
                return "progress #" + (i + 1) + " at epoch " + p.epoch() + ", past epochsRun " + epochsRun;
            }
            if (previous != null && (p.epoch() < previous.epoch()
                    || (p.epoch().equals(previous.epoch()) && p.step() < previous.step()))) {
                return "progress #" + (i + 1) + " (epoch " + p.epoch() + ", step " + p.step() + ") after (epoch "
                        + previous.epoch() + ", step " + previous.step() + ")";
            }
            seen[p.epoch()] = true;
            previous = p;
        }
        for (int epoch = 1; epoch <= epochsRun; epoch++) {
            if (!seen[epoch]) {
                return "no progress at epoch " + epoch + " of " + epochsRun;
            }
        }
        if (TrainingTarget.TEST_ACCURACY.equals(realMetrics.get(jobId)) && epochsRun > 0) {
            Double last = previous.accuracy();
            if (last == null || Double.compare(last, result.testAccuracy()) != 0) {
                return "last progress accuracy " + last + " but result testAccuracy " + result.testAccuracy();
            }
        }
        return null;
    }

    /**
     * @param started jobs started at least once
     * @param running jobs holding resources now (a preempted job waiting to resume is pending again)
     * @param preempted preemptions: a job stopped twice counts twice
     * @param realTargetReached real jobs completed whose reported test accuracy is at least their target
     * @param realMeanTestAccuracy mean test accuracy of the completed real jobs; null when none
     * @param realProgressComplete completed real jobs whose lifecycle holds their full progress (see the class)
     * @param realProgressProblems the first few ({@code MAX_PROBLEMS}) completed real jobs whose progress is not
     *                             complete, each with its first problem; empty when none
     * @param redelivered records read again under an event id already read: skipped, as the services skip them
     * @param duplicateEvents the first few ({@code MAX_DUPLICATES_LISTED}) duplicates, each with its job and events
     */
    record Snapshot(int submitted, int started, int running, int completed, int failed, int rejected, int preempted,
                    int duplicates, int redelivered, int unreadable, double avgJctS, double p50SubmitToBindMs,
                    double p99SubmitToBindMs, int realJobs, int realRunning, int realCompleted, int realTargetReached,
                    Double realMeanTestAccuracy, Double realMinTestAccuracy, int realProgressComplete,
                    List<String> realProgressProblems, List<String> duplicateEvents) {
        int finished() {
            return completed + failed + rejected;
        }

        /** Submitted jobs neither running nor finished: queued, or preempted and waiting to resume. */
        int pending() {
            return submitted - running - finished();
        }
    }

    private static double mean(List<Double> xs) {
        return xs.isEmpty() ? 0 : xs.stream().mapToDouble(Double::doubleValue).sum() / xs.size();
    }

    /** Nearest-rank percentile; 0 for no samples. */
    static double percentile(List<Double> xs, double q) {
        if (xs.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(xs);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
