package io.gantry.scheduling.fairness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fair share inside a replay: charges each tenant's running jobs to a {@link FairShareLedger} and recomputes every
 * tenant's {@link DynamicPriority} once per {@code refreshIntervalS} of virtual time (as Slurm recomputes every
 * {@code PriorityCalcPeriod}), so a queue sorted by priority is re-keyed only for tenants whose priority changed,
 * not on every event. Tenants have equal weights (traces carry no entitlements) and base priority 0; a job's own
 * priority from the trace is added to its tenant's priority.
 */
public final class FairShareTracker {

    /** Settings of fair share in the simulator. */
    public record Settings(double halfLifeS, double fairShareWeight, double refreshIntervalS) {
        /** Defaults: usage half-life one day, fair-share weight 100, priorities recomputed every 5 minutes. */
        public static final Settings DEFAULT = new Settings(24 * 3600.0, 100.0, 300.0);

        public Settings {
            if (!(halfLifeS > 0) || Double.isInfinite(halfLifeS)) {
                throw new IllegalArgumentException("half-life must be a positive number of seconds, got " + halfLifeS);
            }
            if (!(fairShareWeight >= 0) || Double.isInfinite(fairShareWeight)) {
                throw new IllegalArgumentException("fair-share weight must be a finite number ≥ 0, got " + fairShareWeight);
            }
            if (!(refreshIntervalS > 0) || Double.isInfinite(refreshIntervalS)) {
                throw new IllegalArgumentException("refresh interval must be a positive number of seconds, got "
                        + refreshIntervalS);
            }
        }
    }

    private final Settings settings;
    private final FairShareLedger ledger;
    private final DynamicPriority model;
    private final Map<String, Double> tenantPriority = new HashMap<>();
    private double refreshedAtS = Double.NEGATIVE_INFINITY;

    public FairShareTracker(Settings settings) {
        this.settings = settings;
        this.ledger = new FairShareLedger(settings.halfLifeS());
        this.model = new DynamicPriority(settings.fairShareWeight());
    }

    public Settings settings() {
        return settings;
    }

    public void started(String tenant, double gpus, double atS) {
        ledger.startRunning(tenant, gpus, atS);
    }

    public void stopped(String tenant, double gpus, double startS, double stopS) {
        ledger.stopRunning(tenant, gpus, startS, stopS);
    }

    /**
     * Makes {@code tenant} known; true when it is new. Entitlements are shares among known tenants, so after a new
     * tenant the caller must {@link #refresh} before reading priorities.
     */
    public boolean register(String tenant) {
        return tenantPriority.putIfAbsent(tenant, Double.NaN) == null;
    }

    /** The fair-share priority of a registered {@code tenant} as of the last refresh. */
    public double priority(String tenant) {
        Double p = tenantPriority.get(tenant);
        if (p == null || p.isNaN()) {
            throw new IllegalStateException("tenant '" + tenant + "' has no priority yet: register and refresh first");
        }
        return p;
    }

    /** Whether the refresh interval has passed since the last recomputation. */
    public boolean refreshDue(double nowS) {
        return nowS >= refreshedAtS + settings.refreshIntervalS();
    }

    /** Recomputes every known tenant's priority at {@code nowS}; returns the tenants whose priority changed. */
    public List<String> refresh(double nowS) {
        refreshedAtS = nowS;
        Map<String, Double> weights = new HashMap<>();
        for (String t : tenantPriority.keySet()) {
            weights.put(t, 1.0);
        }
        List<String> changed = new ArrayList<>();
        for (DynamicPriority.Assessment a : model.assess(ledger, nowS, Map.of(), weights, 0, 1).values()) {
            Double old = tenantPriority.put(a.tenant(), a.priority());
            if (old == null || !old.equals(a.priority())) {
                changed.add(a.tenant());
            }
        }
        return changed;
    }
}
