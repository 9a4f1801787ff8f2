package io.gantry.scheduling.engine;

import java.time.Instant;

/**
 * The time a {@link SchedulingEngine} runs on, in seconds: virtual in the simulator ({@link VirtualClock}, moved from
 * event to event), the jobs' clock live (wall time × the cluster's speed-up). Events carry wall instants; the clock
 * turns them into the engine's seconds and back (decision timestamps, wake-up timers).
 */
public interface Clock {

    /** Now, in the engine's seconds. */
    double now();

    /** A wall instant (an event's timestamp) in the engine's seconds. */
    double seconds(Instant wall);

    /** The wall instant of {@code seconds} on this clock: when a wake-up is due, what a decision is stamped with. */
    Instant instant(double seconds);
}
