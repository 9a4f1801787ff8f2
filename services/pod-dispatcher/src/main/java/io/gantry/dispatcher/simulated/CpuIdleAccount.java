package io.gantry.dispatcher.simulated;

import io.gantry.scheduling.model.Resources;

/**
 * A node's {@code node_cpu_seconds_total{mode="idle"}} counters on the simulated clock. Requested CPU fills
 * cores in order (3.5 cores requested: cores 0–2 fully busy, core 3 half busy, the rest idle), so the sum over
 * cores is exact; which core a real pod would use is not modelled.
 */
final class CpuIdleAccount {

    private final double[] idleSeconds;
    private double accountedUntil;

    CpuIdleAccount(int cores, double nowEpochSeconds) {
        this.idleSeconds = new double[cores];
        this.accountedUntil = nowEpochSeconds;
    }

    /** Adds the idle time since the last call, during which {@code allocated} was held. Call before it changes. */
    void advanceTo(double nowEpochSeconds, Resources allocated) {
        double elapsed = nowEpochSeconds - accountedUntil;
        if (elapsed <= 0) {
            return;
        }
        double busyCores = allocated.cpuMilli() / 1000.0;
        for (int core = 0; core < idleSeconds.length; core++) {
            double busy = Math.min(1.0, Math.max(0.0, busyCores - core));
            idleSeconds[core] += elapsed * (1.0 - busy);
        }
        accountedUntil = nowEpochSeconds;
    }

    double[] idleSecondsPerCpu() {
        return idleSeconds.clone();
    }
}
