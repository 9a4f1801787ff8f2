package io.gantry.priority.service;

import io.gantry.priority.persistence.WaitingJob;

/** What a committed lifecycle event changed, to apply to the in-memory ledger after the transaction. */
public sealed interface LedgerChange {

    String user();

    /** The job the event was about: its waiting state may have changed with it. */
    String jobId();

    /** The job's waiting row after the event, null when it does not wait: the book keeps it without a lookup. */
    WaitingJob waiting();

    /** A stint began holding {@code gpus}. */
    record Started(String user, String jobId, double gpus, double startS, WaitingJob waiting) implements LedgerChange {
    }

    /** A stint that held {@code gpus} from {@code startS} ended at {@code stopS}. */
    record Stopped(String user, String jobId, double gpus, double startS, double stopS, WaitingJob waiting)
            implements LedgerChange {
    }

    /** A job started waiting ({@code waiting} not null) or stopped waiting; no usage changed. */
    record Waiting(String user, String jobId, double submittedS, WaitingJob waiting) implements LedgerChange {
    }

    /** The event was new but changes no usage (e.g. a terminal event for a stint already closed). */
    record Nothing(String user, String jobId, WaitingJob waiting) implements LedgerChange {
    }
}
