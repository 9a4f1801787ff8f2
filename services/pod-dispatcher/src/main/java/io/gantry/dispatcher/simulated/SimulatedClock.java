package io.gantry.dispatcher.simulated;

/**
 * The simulated cluster's clock: starts at the wall-clock time the dispatcher starts and runs {@code speedup}
 * times faster. Read from {@link System#nanoTime()} so it is monotonic and sub-millisecond precise.
 */
public final class SimulatedClock {

    private final double speedup;
    private final double startEpochSeconds;
    private final long startNanos;

    public SimulatedClock(double speedup) {
        this.speedup = speedup;
        this.startEpochSeconds = System.currentTimeMillis() / 1000.0;
        this.startNanos = System.nanoTime();
    }

    /** Simulated time, in seconds since the Unix epoch. */
    public double nowEpochSeconds() {
        return startEpochSeconds + (System.nanoTime() - startNanos) / 1e9 * speedup;
    }

    /** Wall-clock nanoseconds that {@code simulatedSeconds} take at this speed. */
    public long wallNanosFor(double simulatedSeconds) {
        return Math.max(0L, Math.round(simulatedSeconds / speedup * 1e9));
    }

    public double speedup() {
        return speedup;
    }
}
