package io.gantry.service.support;

import io.gantry.events.InvalidEventException;

/**
 * The reason a record is dead-lettered with, as the exception its nack carries: the channel's dead-letter strategy
 * writes its message as the {@code dead-letter-reason} header, and its cause's class and message as
 * {@code dead-letter-cause-class-name} and {@code dead-letter-cause}.
 */
final class RecordFailure extends RuntimeException {

    /** A header, not a log: a longer reason is cut (a message may quote a huge value). */
    static final int MAX_REASON_LENGTH = 1_000;

    private RecordFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * An invalid event as it is (its message names each field and rule); any other failure as "handling failed:" with
     * the exception's class, message and where it was thrown, which says more than a bare message
     * ({@code NegativeArraySizeException}'s is only a number).
     */
    static RuntimeException reasonFor(Throwable cause) {
        String text;
        if (cause instanceof InvalidEventException invalid) {
            if (invalid.getMessage().length() <= MAX_REASON_LENGTH) {
                return invalid;
            }
            text = invalid.getMessage();
        } else {
            StackTraceElement[] at = cause.getStackTrace();
            text = "handling failed: " + cause.getClass().getSimpleName() + ": " + cause.getMessage()
                    + (at.length == 0 ? "" : " at " + at[0]);
        }
        return new RecordFailure(text.length() <= MAX_REASON_LENGTH ? text
                : text.substring(0, MAX_REASON_LENGTH) + "… (" + text.length() + " characters)", cause);
    }
}
