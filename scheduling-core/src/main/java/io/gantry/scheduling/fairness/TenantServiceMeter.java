package io.gantry.scheduling.fairness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Measures each tenant's <em>normalised service</em>: over the time the tenant is backlogged (has at least one job in
 * the system, waiting or running, as a flow is backlogged in generalised processor sharing while it has unfinished
 * work), the GPU-seconds it was allocated divided by the GPU-seconds it was entitled to. Its entitlement at an
 * instant is its max-min fair share of the cluster's GPUs: water-filling by weight among the backlogged tenants,
 * each capped at its demand (the GPUs of all its jobs in the system), so no tenant is owed GPUs it did not ask for
 * and the GPUs a small tenant cannot use are shared among the others. Jain's index over these values (capped at
 * 1: a tenant that got more than its share while others could not use it is not penalised) is the fairness figure
 * of {@code ./gantry bench}.
 *
 * <p>An ideal fluid fair-share scheduler gives every tenant x = 1; a non-preemptive one cannot, since a gang waits
 * until enough GPUs are free and jobs already running keep theirs.
 *
 * <p>The caller reports changes in order of virtual time and calls {@link #advance} before applying the events of
 * each instant. Each change costs O(tenants · log tenants) at the next advance (the shares are recomputed).
 */
public final class TenantServiceMeter {

    /** One tenant's totals over the time it was backlogged. */
    public record TenantService(double backloggedS, double allocatedGpuS, double entitledGpuS, double waitingS,
                                double allocatedWhileWaitingGpuS, double entitledWhileWaitingGpuS) {
        /** Allocated ÷ entitled, capped at 1; NaN when the tenant never had a job. */
        public double normalisedService() {
            if (backloggedS <= 0 || entitledGpuS <= 0) {
                return Double.NaN;
            }
            return Math.min(1.0, allocatedGpuS / entitledGpuS);
        }

        /**
         * The same ratio over only the time the tenant had a job in the queue (issue 6's literal window, reported beside
         * the main figure as {@code jain_while_waiting}); NaN when it never waited.
         */
        public double normalisedServiceWhileWaiting() {
            if (waitingS <= 0 || entitledWhileWaitingGpuS <= 0) {
                return Double.NaN;
            }
            return Math.min(1.0, allocatedWhileWaitingGpuS / entitledWhileWaitingGpuS);
        }
    }

    private static final class Tenant {
        final double weight;
        int jobsInSystem;
        int waitingJobs;
        double demandGpus;
        double allocatedGpus;
        double entitledGpus;
        double backloggedS;
        double allocatedGpuS;
        double entitledGpuS;
        double waitingS;
        double allocatedWhileWaitingGpuS;
        double entitledWhileWaitingGpuS;

        Tenant(double weight) {
            this.weight = weight;
        }
    }

    private final double clusterGpus;
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();
    private final Set<Tenant> backlogged = new LinkedHashSet<>();
    private boolean sharesStale;

    public TenantServiceMeter(double clusterGpus) {
        this.clusterGpus = clusterGpus;
    }

    /** Time passes by {@code dt} with the current state. */
    public void advance(double dt) {
        if (dt <= 0 || backlogged.isEmpty()) {
            return;
        }
        if (sharesStale) {
            waterFill();
        }
        for (Tenant t : backlogged) {
            t.backloggedS += dt;
            t.allocatedGpuS += t.allocatedGpus * dt;
            t.entitledGpuS += t.entitledGpus * dt;
            if (t.waitingJobs > 0) {
                t.waitingS += dt;
                t.allocatedWhileWaitingGpuS += t.allocatedGpus * dt;
                t.entitledWhileWaitingGpuS += t.entitledGpus * dt;
            }
        }
    }

    /**
     * Max-min fair shares: tenants in order of demand per weight; each gets its demand if that is below the level
     * the GPUs still to give out allow per unit of weight, else that level times its weight.
     */
    private void waterFill() {
        sharesStale = false;
        List<Tenant> byDemand = new ArrayList<>(backlogged);
        byDemand.sort(Comparator.comparingDouble(t -> t.demandGpus / t.weight));
        double gpusLeft = clusterGpus;
        double weightLeft = 0;
        for (Tenant t : byDemand) {
            weightLeft += t.weight;
        }
        for (Tenant t : byDemand) {
            t.entitledGpus = Math.min(t.demandGpus, gpusLeft / weightLeft * t.weight);
            gpusLeft -= t.entitledGpus;
            weightLeft -= t.weight;
        }
    }

    /** A job of {@code tenant} needing {@code gpus} GPUs entered the system and waits. Tenants have weight 1. */
    public void arrived(String tenant, double gpus) {
        Tenant t = tenants.computeIfAbsent(tenant, k -> new Tenant(1.0));
        t.waitingJobs++;
        if (t.jobsInSystem++ == 0) {
            backlogged.add(t);
        }
        t.demandGpus += gpus;
        sharesStale = true;
    }

    /** A waiting job of {@code tenant} started on {@code gpus} GPUs. */
    public void started(String tenant, double gpus) {
        Tenant t = tenants.get(tenant);
        t.allocatedGpus += gpus;
        t.waitingJobs--;
    }

    /** A running job of {@code tenant} was preempted back into the queue (it still needs its GPUs). */
    public void preempted(String tenant, double gpus) {
        Tenant t = tenants.get(tenant);
        t.allocatedGpus -= gpus;
        t.waitingJobs++;
    }

    /** A job of {@code tenant} now needs {@code toGpus} instead of {@code fromGpus} (re-tuned); it holds them if running. */
    public void resized(String tenant, double fromGpus, double toGpus, boolean running) {
        Tenant t = tenants.get(tenant);
        t.demandGpus += toGpus - fromGpus;
        if (running) {
            t.allocatedGpus += toGpus - fromGpus;
        }
        sharesStale = true;
    }

    /** A running job of {@code tenant} finished. */
    public void finished(String tenant, double gpus) {
        Tenant t = tenants.get(tenant);
        t.allocatedGpus -= gpus;
        t.demandGpus -= gpus;
        if (--t.jobsInSystem == 0) {
            backlogged.remove(t);
            // Nothing left: clear rounding residue so it cannot accumulate over many jobs.
            t.allocatedGpus = 0;
            t.demandGpus = 0;
        }
        sharesStale = true;
    }

    public Map<String, TenantService> totals() {
        Map<String, TenantService> out = new LinkedHashMap<>();
        tenants.forEach((name, t) -> out.put(name, new TenantService(t.backloggedS, t.allocatedGpuS, t.entitledGpuS,
                t.waitingS, t.allocatedWhileWaitingGpuS, t.entitledWhileWaitingGpuS)));
        return out;
    }

    /**
     * Jain's index (Σx)² ÷ (n·Σx²) over the normalised service x of the tenants that had jobs: 1 when each got the
     * same fraction of its fair share, 1/n when one tenant got everything. 1 when no tenant had a job.
     */
    public static double jainIndex(Map<String, TenantService> totals) {
        return JainIndex.of(totals.values().stream().map(TenantService::normalisedService).toList());
    }

    /** Jain's index over {@link TenantService#normalisedServiceWhileWaiting()} of the tenants that ever waited. */
    public static double jainIndexWhileWaiting(Map<String, TenantService> totals) {
        return JainIndex.of(totals.values().stream().map(TenantService::normalisedServiceWhileWaiting).toList());
    }
}
