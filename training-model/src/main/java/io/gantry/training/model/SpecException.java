package io.gantry.training.model;

/** A training spec that cannot be trained, with the field (a dotted path, e.g. {@code training.model.layers[2]}) to blame. */
public class SpecException extends RuntimeException {

    private final String field;
    private final String reason;

    public SpecException(String field, String reason) {
        super(field + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
