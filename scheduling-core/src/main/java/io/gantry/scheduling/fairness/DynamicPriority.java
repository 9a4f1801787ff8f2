package io.gantry.scheduling.fairness;

import java.util.Map;
import java.util.TreeMap;

/**
 * The dynamic priority of each tenant: its admin-set base priority plus a fair-share term that falls as the tenant
 * uses more than its entitlement.
 *
 * <pre>
 *   usageShare_i       = U_i ÷ Σ_j U_j           (decayed GPU-seconds, {@link FairShareLedger}; 0 when Σ U = 0)
 *   entitlementShare_i = w_i ÷ Σ_j w_j           (weights of every known tenant)
 *   F_i                = 2^(−usageShare_i ÷ entitlementShare_i)      (Slurm's classic fair-share factor)
 *   priority_i         = base_i + fairShareWeight × F_i
 * </pre>
 *
 * F is 1 for a tenant with no recent usage, ½ for one that used exactly its entitlement, ¼ at twice it, and tends to
 * 0 for a tenant that used everything; it is the {@code 2^(-U/S)} factor of Slurm's multifactor priority plugin
 * (fair-share factor, "classic" algorithm), multiplied by a weight as Slurm's {@code PriorityWeightFairshare} does.
 * Kueue's admission fair sharing orders by the same ingredients (usage decayed with {@code usageHalfLifeTime},
 * divided by the queue's weight). Properties, each tested:
 * <ul>
 *   <li>bounded: {@code base ≤ priority ≤ base + fairShareWeight};</li>
 *   <li>monotone: priority never rises when the tenant's own usage rises, never falls when its weight or base rises
 *       or when another tenant's usage rises;</li>
 *   <li>with equal bases, a tenant under its entitlement always ranks above one over it, whatever the weight.</li>
 * </ul>
 * A tenant with weight 0 has no entitlement: F = 0 once anyone has used anything.
 */
public final class DynamicPriority {

    /** One tenant's inputs and result, with the terms that explain it. */
    public record Assessment(String tenant, double basePriority, double weight, double decayedGpuSeconds,
                             double usageShare, double entitlementShare, double fairShareFactor, double priority) {

        /** A sentence for people: why this tenant has this priority. */
        public String explanation() {
            return String.format(java.util.Locale.ROOT,
                    "base %.3f + fair-share %.4f (used %.1f%% of decayed GPU-seconds, entitled to %.1f%%)",
                    basePriority, priority - basePriority, 100 * usageShare, 100 * entitlementShare);
        }
    }

    private final double fairShareWeight;

    /** @param fairShareWeight how much priority the fair-share factor can add on top of the base priority */
    public DynamicPriority(double fairShareWeight) {
        if (!(fairShareWeight >= 0) || Double.isInfinite(fairShareWeight)) {
            throw new IllegalArgumentException("fair-share weight must be a finite number ≥ 0, got " + fairShareWeight);
        }
        this.fairShareWeight = fairShareWeight;
    }

    public double fairShareWeight() {
        return fairShareWeight;
    }

    /** Slurm's {@code 2^(-usageShare/entitlementShare)}, in [0, 1]. */
    public static double fairShareFactor(double usageShare, double entitlementShare) {
        if (usageShare <= 0) {
            return 1;
        }
        if (entitlementShare <= 0) {
            return 0;
        }
        return Math.pow(2, -usageShare / entitlementShare);
    }

    /**
     * Every tenant's assessment at {@code atS}: those in {@code weights} (which defines the known tenants and their
     * entitlements) and any other tenant the ledger has seen, with {@code defaultWeight}.
     */
    public Map<String, Assessment> assess(FairShareLedger ledger, double atS, Map<String, Double> basePriorities,
                                          Map<String, Double> weights, double defaultBase, double defaultWeight) {
        Map<String, Double> allWeights = new TreeMap<>(weights);
        for (String t : ledger.tenants()) {
            allWeights.putIfAbsent(t, defaultWeight);
        }
        basePriorities.keySet().forEach(t -> allWeights.putIfAbsent(t, defaultWeight));
        double totalWeight = 0;
        double totalUsage = 0;
        Map<String, Double> usage = new TreeMap<>();
        for (Map.Entry<String, Double> e : allWeights.entrySet()) {
            double u = ledger.decayedUsage(e.getKey(), atS);
            usage.put(e.getKey(), u);
            totalUsage += u;
            totalWeight += e.getValue();
        }
        Map<String, Assessment> out = new TreeMap<>();
        for (Map.Entry<String, Double> e : allWeights.entrySet()) {
            String t = e.getKey();
            double u = usage.get(t);
            double usageShare = totalUsage > 0 ? u / totalUsage : 0;
            double entitlementShare = totalWeight > 0 ? e.getValue() / totalWeight : 0;
            double factor = fairShareFactor(usageShare, entitlementShare);
            double base = basePriorities.getOrDefault(t, defaultBase);
            out.put(t, new Assessment(t, base, e.getValue(), u, usageShare, entitlementShare, factor,
                    base + fairShareWeight * factor));
        }
        return out;
    }
}
