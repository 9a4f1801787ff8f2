package io.gantry.dispatcher.cluster;

/** What a cluster did with a decision. */
public sealed interface BindOutcome {

    /** Every task is bound to its node; nothing else of the job is left to place. */
    record Bound() implements BindOutcome {
    }

    /**
     * Nothing was bound and the job cannot run as decided; the dispatcher announces it failed. {@code cause} is a
     * bounded label for metrics, {@code reason} the human text.
     */
    record Refused(String cause, String reason) implements BindOutcome {
    }

    /** The job was bound (or refused) before: a second decision for it changes nothing. */
    record AlreadyDecided(String jobId) implements BindOutcome {
    }

    /**
     * Nothing was bound because the job's pods are gone or already bound by someone else; the cluster has
     * already said (or will say) what became of them, so the decision changes nothing and announces nothing.
     */
    record NothingToBind(String reason) implements BindOutcome {
    }
}
