package io.gantry.scheduling.engine;

import java.time.Instant;

/**
 * A clock that only moves when told: the simulator sets it to each event's time. An instant is its seconds since
 * the epoch, so a live adapter driven by this clock (the simulator-vs-live test) stamps its events consistently.
 */
public final class VirtualClock implements Clock {

    private double now;

    public VirtualClock(double start) {
        this.now = start;
    }

    /** Moves to {@code t}; time never goes back. */
    public void advanceTo(double t) {
        if (t < now) {
            throw new IllegalArgumentException("virtual time may not go back from " + now + " to " + t);
        }
        now = t;
    }

    @Override
    public double now() {
        return now;
    }

    @Override
    public double seconds(Instant wall) {
        return wall.getEpochSecond() + wall.getNano() / 1e9;
    }

    @Override
    public Instant instant(double seconds) {
        long whole = (long) Math.floor(seconds);
        return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e9));
    }
}
