package io.gantry.dispatcher.simulated;

/** What the simulated cluster did with a decision. */
public sealed interface BindOutcome {

    /** Every task is placed and charged to its node; the job runs from now. */
    record Bound(RunningJob job) implements BindOutcome {
    }

    /** Nothing was charged. {@code cause} is a bounded label for metrics, {@code reason} the human text. */
    record Refused(String cause, String reason) implements BindOutcome {
    }

    /** The job was bound (or refused) before: a second decision for it changes nothing. */
    record AlreadyDecided(String jobId) implements BindOutcome {
    }
}
