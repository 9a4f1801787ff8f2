package io.gantry.studio.service;

import java.util.List;

/** A request the studio refuses, with every reason found; the REST layer answers 400 with them. */
public class BadRequest extends RuntimeException {

    private final List<FieldError> errors;

    public BadRequest(List<FieldError> errors) {
        super(errors.isEmpty() ? "bad request" : errors.get(0).field() + ": " + errors.get(0).reason());
        this.errors = List.copyOf(errors);
    }

    public BadRequest(String field, String reason) {
        this(List.of(FieldError.of(field, reason)));
    }

    public List<FieldError> errors() {
        return errors;
    }
}
