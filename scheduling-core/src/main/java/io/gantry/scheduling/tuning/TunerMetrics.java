package io.gantry.scheduling.tuning;

import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import java.util.List;

/**
 * The tuner's keys of one replay in {@code summary.json}.
 *
 * @param mode               how the jobs were tuned: {@link TunerMode#cliName()}, or {@code own} for a policy that
 *                           sizes its jobs itself (pollux), to which the tuner does not apply
 * @param gpuHours           allocated GPU-hours (time-average allocation × cluster capacity × replay span), killed runs included
 * @param cpuCoreHours       allocated CPU-core-hours, the same way
 * @param memGibHours        allocated memory GiB-hours, the same way
 * @param oomKills           runs killed because their memory request was below their peak
 * @param targetReachedRatio of the jobs with a target metric, the share whose final metric reaches it; for a trace
 *                           without metrics, the share of jobs that ran to completion (killed jobs count once retried)
 * @param avgFinalMetric     mean final validation metric over jobs with one (mixes the applications' units, so it only
 *                           compares runs of the same workload); null when no job has a metric
 */
public record TunerMetrics(String mode, double gpuHours, double cpuCoreHours, double memGibHours, int oomKills,
                           double targetReachedRatio, Double avgFinalMetric) {

    public static TunerMetrics of(String mode, SimulationResult result, List<TunedJob> jobs, Resources clusterCapacity,
                                  java.util.function.BiPredicate<TunedJob, Double> reachesTarget) {
        double first = Double.POSITIVE_INFINITY;
        double last = Double.NEGATIVE_INFINITY;
        for (JobOutcome o : result.outcomes()) {
            first = Math.min(first, o.submit());
            last = Math.max(last, o.finish());
        }
        double spanH = result.outcomes().isEmpty() ? 0 : (last - first) / 3600;
        int withTarget = 0;
        int reached = 0;
        double metricSum = 0;
        for (TunedJob j : jobs) {
            if (j.hasTarget()) {
                withTarget++;
                metricSum += j.finalMetric();
                if (reachesTarget.test(j, j.finalMetric())) {
                    reached++;
                }
            }
        }
        double ratio = withTarget > 0 ? (double) reached / withTarget
                : jobs.isEmpty() ? 1 : (double) result.outcomes().size() / jobs.size();
        return new TunerMetrics(mode, result.gpuAllocRatio() * clusterCapacity.gpus() * spanH,
                result.cpuAllocRatio() * clusterCapacity.cpuMilli() / 1000.0 * spanH,
                result.memAllocRatio() * clusterCapacity.memoryMib() / 1024.0 * spanH, result.oomKills(), ratio,
                withTarget > 0 ? metricSum / withTarget : null);
    }
}
