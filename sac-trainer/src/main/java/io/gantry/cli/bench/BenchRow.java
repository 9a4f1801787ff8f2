package io.gantry.cli.bench;

import io.gantry.scheduling.sim.RunMetrics;
import io.gantry.scheduling.tuning.TunerMetrics;

/**
 * One (load, seed, policy) replay: the row of summary.json and summary.csv. {@code load} is NaN when replayed as
 * recorded. {@code tuner} holds the tuner keys (with the tuner on or off).
 */
record BenchRow(String trace, String traceFile, double targetLoad, double offeredLoad, long seed, String policy,
                int jobs, int unfit, int badRows, RunMetrics m, double wallS, TunerMetrics tuner, double preemptionCostS) {

    /** The load a row is filed under: the target ρ, or the measured ρ of the recorded arrivals when none was given. */
    double load() {
        return Double.isNaN(targetLoad) ? offeredLoad : targetLoad;
    }
}
