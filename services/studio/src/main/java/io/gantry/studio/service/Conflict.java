package io.gantry.studio.service;

/** A request that cannot be applied in the current state, e.g. cancelling a run that has ended. */
public class Conflict extends RuntimeException {

    public Conflict(String reason) {
        super(reason);
    }
}
