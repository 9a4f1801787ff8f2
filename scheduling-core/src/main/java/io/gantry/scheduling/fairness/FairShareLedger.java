package io.gantry.scheduling.fairness;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decayed GPU usage per tenant, exact in continuous time: a GPU held from {@code a} to {@code b} counts, at time
 * {@code t}, as {@code ∫_a^b 2^{-(t-x)/h} dx} GPU-seconds, where {@code h} is the half-life. So usage from one
 * half-life ago weighs half as much as usage now, as in Slurm's {@code PriorityDecayHalfLife} and Kueue's
 * {@code usageHalfLifeTime}.
 *
 * <p>Every amount is kept multiplied by {@code 2^{(x-T0)/h}} for a reference time {@code T0}, so charges are plain
 * sums: the result does not depend on the order in which intervals are charged (events that arrive out of order,
 * or a rebuild from a database in any row order, give the same usage). Jobs still running are carried as a rate
 * ({@code startRunning}/{@code stopRunning}) so a tenant's usage grows while its jobs hold GPUs, not only when they
 * end. Not thread-safe: the caller serialises access.
 */
public final class FairShareLedger {

    /** Rebase once scaled amounts reach 2^RESCALE_EXPONENT, far below double overflow (2^1024). */
    private static final double RESCALE_EXPONENT = 512;

    private final double halfLifeS;
    private final double meanLifeS;
    private final Map<String, TenantUsage> tenants = new HashMap<>();
    private double referenceS = Double.NaN;

    /** Scaled amounts of one tenant: finished usage, and the GPUs running now with their scaled start times. */
    private static final class TenantUsage {
        double finished;
        double runningGpus;
        double runningScaledStarts;
    }

    public FairShareLedger(double halfLifeS) {
        if (!(halfLifeS > 0) || Double.isInfinite(halfLifeS)) {
            throw new IllegalArgumentException("half-life must be a positive number of seconds, got " + halfLifeS);
        }
        this.halfLifeS = halfLifeS;
        this.meanLifeS = halfLifeS / Math.log(2);
    }

    public double halfLifeS() {
        return halfLifeS;
    }

    /** Charges a finished interval: {@code gpus} held from {@code fromS} to {@code toS}. */
    public void charge(String tenant, double gpus, double fromS, double toS) {
        checkInterval(gpus, fromS, toS);
        anchor(toS);
        usage(tenant).finished += gpus * meanLifeS * (scale(toS) - scale(fromS));
    }

    /** A job of {@code tenant} started holding {@code gpus} at {@code startS}; its usage accrues until stopped. */
    public void startRunning(String tenant, double gpus, double startS) {
        checkInterval(gpus, startS, startS);
        anchor(startS);
        TenantUsage u = usage(tenant);
        u.runningGpus += gpus;
        u.runningScaledStarts += gpus * scale(startS);
    }

    /** The job started by {@link #startRunning} with the same arguments released its GPUs at {@code stopS}. */
    public void stopRunning(String tenant, double gpus, double startS, double stopS) {
        checkInterval(gpus, startS, stopS);
        TenantUsage u = usage(tenant);
        u.runningGpus -= gpus;
        u.runningScaledStarts -= gpus * scale(startS);
        if (u.runningGpus < 1e-9) {
            // Nothing runs any more: clear rounding residue so it cannot accumulate over millions of jobs.
            u.runningGpus = 0;
            u.runningScaledStarts = 0;
        }
        charge(tenant, gpus, startS, stopS);
    }

    /** Decayed GPU-seconds of {@code tenant} as seen at {@code atS}, running jobs included up to {@code atS}. */
    public double decayedUsage(String tenant, double atS) {
        TenantUsage u = tenants.get(tenant);
        if (u == null || Double.isNaN(referenceS)) {
            return 0;
        }
        double now = scale(atS);
        double scaled = u.finished + meanLifeS * (u.runningGpus * now - u.runningScaledStarts);
        return Math.max(0, scaled / now);
    }

    /** Every tenant ever charged or started, sorted. */
    public Set<String> tenants() {
        return new TreeSet<>(tenants.keySet());
    }

    /** GPUs the tenant holds now (its running jobs). */
    public double runningGpus(String tenant) {
        TenantUsage u = tenants.get(tenant);
        return u == null ? 0 : u.runningGpus;
    }

    private TenantUsage usage(String tenant) {
        return tenants.computeIfAbsent(tenant, t -> new TenantUsage());
    }

    private double scale(double atS) {
        return Math.pow(2, (atS - referenceS) / halfLifeS);
    }

    /** Sets the reference time on first use and moves it forward before scaled amounts could overflow. */
    private void anchor(double atS) {
        if (Double.isNaN(referenceS)) {
            referenceS = atS;
            return;
        }
        if ((atS - referenceS) / halfLifeS > RESCALE_EXPONENT) {
            double factor = scale(atS);
            for (TenantUsage u : tenants.values()) {
                u.finished /= factor;
                u.runningScaledStarts /= factor;
            }
            referenceS = atS;
        }
    }

    private static void checkInterval(double gpus, double fromS, double toS) {
        if (!(gpus >= 0) || Double.isInfinite(gpus)) {
            throw new IllegalArgumentException("GPUs must be a finite number ≥ 0, got " + gpus);
        }
        if (!Double.isFinite(fromS) || !Double.isFinite(toS) || toS < fromS) {
            throw new IllegalArgumentException("interval must be finite and end no earlier than it starts: "
                    + fromS + " .. " + toS);
        }
    }
}
