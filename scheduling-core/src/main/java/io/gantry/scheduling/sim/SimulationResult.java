package io.gantry.scheduling.sim;

import io.gantry.scheduling.fairness.TenantServiceMeter;
import java.util.List;
import java.util.Map;

/**
 * Everything a replay measured.
 *
 * @param outcomes        one per job that finished, in finishing order
 * @param unfinished      ids of jobs still pending or running when no event was left (must be empty)
 * @param allocationTimes times at which the cluster's GPU allocation changed, with
 * @param gpuAllocRatios  the allocated share of all GPUs from that time on
 * @param gpuAllocRatio   time-average allocated share of GPUs over the span from first arrival to last finish
 * @param cpuAllocRatio   the same for CPU
 * @param memAllocRatio   the same for memory
 * @param nodeCv          time-average coefficient of variation of per-node GPU allocation (0 = perfectly even)
 * @param maxGpuAllocRatioSeen the highest cluster GPU allocation share observed (≤ 1 unless broken)
 * @param rounds          scheduling rounds run
 * @param wallS           wall-clock seconds the replay took
 * @param tenantService   per tenant, the service it received while it had work waiting (for Jain's index)
 * @param oomKills        runs killed for exceeding their memory request (see {@link OomModel}); 0 without one
 */
public record SimulationResult(List<JobOutcome> outcomes, List<String> unfinished, double[] allocationTimes,
                               double[] gpuAllocRatios, double gpuAllocRatio, double cpuAllocRatio,
                               double memAllocRatio, double nodeCv, double maxGpuAllocRatioSeen, long rounds,
                               double wallS, Map<String, TenantServiceMeter.TenantService> tenantService,
                               int oomKills) {

    /** A replay without an {@link OomModel}. */
    public SimulationResult(List<JobOutcome> outcomes, List<String> unfinished, double[] allocationTimes,
                            double[] gpuAllocRatios, double gpuAllocRatio, double cpuAllocRatio, double memAllocRatio,
                            double nodeCv, double maxGpuAllocRatioSeen, long rounds, double wallS,
                            Map<String, TenantServiceMeter.TenantService> tenantService) {
        this(outcomes, unfinished, allocationTimes, gpuAllocRatios, gpuAllocRatio, cpuAllocRatio, memAllocRatio, nodeCv,
                maxGpuAllocRatioSeen, rounds, wallS, tenantService, 0);
    }
}
