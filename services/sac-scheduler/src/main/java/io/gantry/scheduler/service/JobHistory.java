package io.gantry.scheduler.service;

import io.gantry.scheduler.mapping.JobRequests;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The jobs the online learner's replay check replays: the last {@code window} jobs that completed here, with
 * what they requested and how long they really ran: the {@link JobCompleted#runtimeS()} of their last stint plus
 * the {@link JobPreempted#ranS()} of the stints preempted before it. Submit times are put on
 * the jobs' clock ({@link JobClock}); the check rescales arrivals to its own load anyway. Thread-safe: fed from
 * the consumers, read by the learner thread.
 */
final class JobHistory {

    private final int window;
    private final JobClock clock;
    private final Map<String, JobTuned> inSystem = new HashMap<>();
    private final ArrayDeque<JobRequest> completed = new ArrayDeque<>();
    /** Seconds run in stints that were preempted, per job still in the system. */
    private final Map<String, Double> ranBeforePreemption = new HashMap<>();

    JobHistory(int window, JobClock clock) {
        this.window = window;
        this.clock = clock;
    }

    synchronized void tuned(JobTuned job) {
        inSystem.put(job.jobId(), job);
    }

    /** Completed jobs join the window; failed and rejected ones leave without a duration to replay. */
    synchronized void lifecycle(LifecycleEvent e) {
        if (e instanceof JobPreempted p && p.ranS() != null && inSystem.containsKey(e.jobId())) {
            ranBeforePreemption.merge(e.jobId(), p.ranS(), Double::sum);
        }
        if (!e.terminal()) {
            return;
        }
        JobTuned job = inSystem.remove(e.jobId());
        double ranBefore = ranBeforePreemption.getOrDefault(e.jobId(), 0.0);
        ranBeforePreemption.remove(e.jobId());
        if (job != null && e instanceof JobCompleted c) {
            completed.addLast(JobRequests.completed(job, clock.seconds(job.submittedAt()), ranBefore + c.runtimeS()));
            if (completed.size() > window) {
                completed.removeFirst();
            }
        }
    }

    synchronized List<JobRequest> recentCompleted() {
        return List.copyOf(completed);
    }
}
