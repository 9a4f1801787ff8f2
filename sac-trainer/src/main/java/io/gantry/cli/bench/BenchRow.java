package io.gantry.cli.bench;

import io.gantry.scheduling.sim.RunMetrics;

/** One (load, seed, policy) replay: the row of summary.json and summary.csv. {@code load} is NaN when replayed as recorded. */
record BenchRow(String trace, String traceFile, double targetLoad, double offeredLoad, long seed, String policy,
                int jobs, int unfit, int badRows, RunMetrics m, double wallS) {
}
