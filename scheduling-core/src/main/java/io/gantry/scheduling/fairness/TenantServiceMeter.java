package io.gantry.scheduling.fairness;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Measures each tenant's <em>normalised service</em>: over the time the tenant had at least one job waiting, the
 * GPU-seconds it was allocated divided by the GPU-seconds it was entitled to. Its entitlement at an instant is the
 * cluster's GPUs × its weight ÷ the summed weights of the tenants with work in the system (waiting or running) at
 * that instant: the share a weighted fair-share scheduler owes a backlogged tenant. Jain's index over these values
 * (capped at 1: a backlogged tenant that got more than its entitlement took only what others left) is the
 * fairness figure of {@code ./gantry bench}.
 *
 * <p>The caller reports changes in order of virtual time and calls {@link #advance} before applying the events of
 * each instant. Cost per advance is proportional to the number of tenants waiting.
 */
public final class TenantServiceMeter {

    /** One tenant's totals. */
    public record TenantService(double waitingS, double allocatedGpuS, double entitledGpuS) {
        /** Allocated ÷ entitled while waiting, capped at 1; NaN when the tenant never waited. */
        public double normalisedService() {
            if (waitingS <= 0 || entitledGpuS <= 0) {
                return Double.NaN;
            }
            return Math.min(1.0, allocatedGpuS / entitledGpuS);
        }
    }

    private static final class Tenant {
        final double weight;
        int waitingJobs;
        int jobsInSystem;
        double allocatedGpus;
        double waitingS;
        double allocatedGpuS;
        double entitledGpuS;

        Tenant(double weight) {
            this.weight = weight;
        }
    }

    private final double clusterGpus;
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();
    private final Set<Tenant> waiting = new LinkedHashSet<>();
    private double activeWeight;

    public TenantServiceMeter(double clusterGpus) {
        this.clusterGpus = clusterGpus;
    }

    /** Time passes by {@code dt} with the current state. */
    public void advance(double dt) {
        if (dt <= 0 || waiting.isEmpty()) {
            return;
        }
        double perWeight = clusterGpus / activeWeight;
        for (Tenant t : waiting) {
            t.waitingS += dt;
            t.allocatedGpuS += t.allocatedGpus * dt;
            t.entitledGpuS += perWeight * t.weight * dt;
        }
    }

    /** A job of {@code tenant} entered the system and waits. Tenants have weight 1. */
    public void arrived(String tenant) {
        Tenant t = tenants.computeIfAbsent(tenant, k -> new Tenant(1.0));
        if (t.jobsInSystem++ == 0) {
            activeWeight += t.weight;
        }
        if (t.waitingJobs++ == 0) {
            waiting.add(t);
        }
    }

    /** A waiting job of {@code tenant} started on {@code gpus} GPUs. */
    public void started(String tenant, double gpus) {
        Tenant t = tenants.get(tenant);
        t.allocatedGpus += gpus;
        if (--t.waitingJobs == 0) {
            waiting.remove(t);
        }
    }

    /** A running job of {@code tenant} was preempted back into the queue. */
    public void preempted(String tenant, double gpus) {
        Tenant t = tenants.get(tenant);
        t.allocatedGpus -= gpus;
        if (t.waitingJobs++ == 0) {
            waiting.add(t);
        }
    }

    /** A running job of {@code tenant} finished. */
    public void finished(String tenant, double gpus) {
        Tenant t = tenants.get(tenant);
        t.allocatedGpus -= gpus;
        if (--t.jobsInSystem == 0) {
            activeWeight -= t.weight;
            t.allocatedGpus = 0;
        }
    }

    public Map<String, TenantService> totals() {
        Map<String, TenantService> out = new LinkedHashMap<>();
        tenants.forEach((name, t) -> out.put(name, new TenantService(t.waitingS, t.allocatedGpuS, t.entitledGpuS)));
        return out;
    }

    /**
     * Jain's index (Σx)² ÷ (n·Σx²) over the normalised service x of the tenants that ever waited: 1 when each got
     * the same fraction of its entitlement, 1/n when one tenant got everything. 1 when no tenant ever waited.
     */
    public static double jainIndex(Map<String, TenantService> totals) {
        return JainIndex.of(totals.values().stream().map(TenantService::normalisedService).toList());
    }
}
