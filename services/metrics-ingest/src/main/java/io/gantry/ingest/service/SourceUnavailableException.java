package io.gantry.ingest.service;

/**
 * The source gave nothing usable this time: it did not answer, answered with an error, or answered with
 * something that is not a metrics exposition at all.
 *
 * @see #kind()
 */
public class SourceUnavailableException extends Exception {

    private final String kind;

    public SourceUnavailableException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** {@code unavailable} (no answer or an HTTP error) or {@code unparsable}; a bounded metrics label. */
    public String kind() {
        return kind;
    }
}
