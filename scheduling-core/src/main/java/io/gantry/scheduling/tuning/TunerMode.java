package io.gantry.scheduling.tuning;

import java.util.Arrays;
import java.util.Locale;

/**
 * When the tuner sets a job: never ({@link #OFF}, the trace's own configuration), once before it is queued
 * ({@link #ONCE}), or before it is queued and again while it runs ({@link #ADAPTIVE}: batch size at every epoch
 * boundary, GPU count every {@link AdaptiveRetuner#RETUNE_INTERVAL_S} s of simulated time).
 */
public enum TunerMode {
    OFF, ONCE, ADAPTIVE;

    /** The name on the command line and in summary files. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean tunes() {
        return this != OFF;
    }

    /** {@code off}, {@code once} or {@code adaptive}; {@code on} is kept as another name for {@code once}. */
    public static TunerMode parse(String name) {
        if ("on".equals(name)) {
            return ONCE;
        }
        for (TunerMode m : values()) {
            if (m.cliName().equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("tuner mode is off, once (or on) or adaptive, got '" + name + "'; known: "
                + String.join(", ", Arrays.stream(values()).map(TunerMode::cliName).toList()));
    }
}
