package io.gantry.studio.service;

/** A graph or run that does not exist for the caller: missing, or another user's (the studio does not say which). */
public class NotFound extends RuntimeException {

    public NotFound(String what) {
        super(what + " not found");
    }
}
