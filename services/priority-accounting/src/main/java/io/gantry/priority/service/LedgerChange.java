package io.gantry.priority.service;

/** What a committed lifecycle event changed, to apply to the in-memory ledger after the transaction. */
public sealed interface LedgerChange {

    String user();

    /** The job the event was about: its waiting state may have changed with it. */
    String jobId();

    /** A stint began holding {@code gpus}. */
    record Started(String user, String jobId, double gpus, double startS) implements LedgerChange {
    }

    /** A stint that held {@code gpus} from {@code startS} ended at {@code stopS}. */
    record Stopped(String user, String jobId, double gpus, double startS, double stopS) implements LedgerChange {
    }

    /** A job started waiting or stopped waiting; no usage changed. */
    record Waiting(String user, String jobId, double submittedS, boolean waiting) implements LedgerChange {
    }

    /** The event was new but changes no usage (e.g. a terminal event for a stint already closed). */
    record Nothing(String user, String jobId) implements LedgerChange {
    }
}
