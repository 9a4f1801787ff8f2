package io.gantry.scheduler.service;

import io.gantry.scheduling.engine.Clock;
import java.time.Instant;

/**
 * The jobs' clock: wall-clock epoch seconds × {@code timeScale}. The simulated cluster runs jobs {@code timeScale}
 * times faster than the wall clock while durations and predictions stay in the trace's seconds; on this clock a
 * wait, a run and a prediction are in the same unit, as in the simulator. On a real cluster the scale is 1. It is
 * the live form of the engine's {@link Clock} (the simulator's is a virtual one).
 */
public record JobClock(double timeScale) implements Clock {

    public static final JobClock WALL = new JobClock(1);

    public JobClock {
        if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
            throw new IllegalArgumentException("gantry.scheduler.time-scale must be a positive number, got " + timeScale);
        }
    }

    @Override
    public double now() {
        return seconds(Instant.now());
    }

    @Override
    public double seconds(Instant wall) {
        return (wall.getEpochSecond() + wall.getNano() / 1e9) * timeScale;
    }

    @Override
    public Instant instant(double seconds) {
        double wall = seconds / timeScale;
        long whole = (long) Math.floor(wall);
        return Instant.ofEpochSecond(whole, Math.round((wall - whole) * 1e9));
    }
}
