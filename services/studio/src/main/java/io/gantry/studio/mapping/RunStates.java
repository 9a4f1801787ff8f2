package io.gantry.studio.mapping;

import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobProgress;
import io.gantry.events.JobRejected;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import java.util.List;

/**
 * A run's state as the page shows it, from the lifecycle event that last changed it. {@code PENDING} is also shown
 * for a {@code SUBMITTED} or {@code TUNED} run the scheduler lists in its queue.
 */
public final class RunStates {

    public static final String SUBMITTED = "SUBMITTED";
    public static final String TUNED = "TUNED";
    public static final String PENDING = "PENDING";
    public static final String RUNNING = "RUNNING";
    public static final String COMPLETED = "COMPLETED";
    public static final String FAILED = "FAILED";
    public static final String CANCELLED = "CANCELLED";
    public static final String REJECTED = "REJECTED";
    public static final List<String> ENDED = List.of(COMPLETED, FAILED, CANCELLED, REJECTED);
    /**
     * The reason of the {@code JobFailed} that ends a cancelled job (the dispatcher's or the scheduler's answer to a
     * {@code JobCancelRequested}): the studio shows it as CANCELLED.
     */
    public static final String CANCELLED_REASON = "cancelled";

    private RunStates() {
    }

    public static boolean ended(String state) {
        return ENDED.contains(state);
    }

    /** The state {@code event} moves a run to, or null when it changes no state (a result arrives before the end). */
    public static String after(LifecycleEvent event) {
        if (event instanceof JobStarted || event instanceof JobProgress) {
            return RUNNING;
        }
        if (event instanceof JobPreempted) {
            return PENDING;
        }
        if (event instanceof JobCompleted) {
            return COMPLETED;
        }
        if (event instanceof JobFailed f) {
            return CANCELLED_REASON.equals(f.reason()) ? CANCELLED : FAILED;
        }
        if (event instanceof JobRejected) {
            return REJECTED;
        }
        return null; // JobResult: the run's outcome, kept, but its end comes with JobCompleted
    }
}
