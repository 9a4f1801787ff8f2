package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/**
 * Tiresias' discretised two-dimensional least-attained-service (Gu et al., NSDI'19): a job's
 * attained service is GPUs × time it has run; it starts in queue 0 and is demoted to queue k once
 * that service passes {@code thresholds[k-1]}. Lower queues run first and preempt higher ones;
 * within a queue, FIFO by arrival (so a queue-mate never preempts). Knows nothing about durations.
 *
 * <p>Thresholds: 1 GPU-hour and 16 GPU-hours. The 16 GPU-hour bound is the one Pollux's Tiresias
 * reimplementation uses; the 1 GPU-hour step adds a queue for the short-job mass of Philly
 * (median duration well under an hour), in the exponentially spaced spirit of the paper.
 */
public final class TiresiasPolicy extends PreemptivePriorityPolicy {

    public static final String NAME = "tiresias";

    static final double[] DEFAULT_THRESHOLDS_GPU_S = {3600.0, 16 * 3600.0};

    private final double[] thresholdsGpuS;

    public TiresiasPolicy() {
        this(DEFAULT_THRESHOLDS_GPU_S);
    }

    public TiresiasPolicy(double[] thresholdsGpuS) {
        super(NAME, NodeScorer.MOST_ALLOCATED);
        this.thresholdsGpuS = thresholdsGpuS.clone();
    }

    /** The queue index: how many thresholds the attained service has passed. */
    int queueOf(double attainedGpuS) {
        int q = 0;
        while (q < thresholdsGpuS.length && attainedGpuS >= thresholdsGpuS[q]) {
            q++;
        }
        return q;
    }

    @Override
    protected double urgency(JobRequest job, double attainedGpuS, SchedulingContext ctx) {
        return queueOf(attainedGpuS);
    }

    /** Wake when the first running job crosses into a lower-priority queue, if anyone waits to use it. */
    @Override
    protected double nextWake(SchedulingContext ctx, List<RunningJob> stillRunning, List<JobRequest> stillPending) {
        if (stillPending.isEmpty()) {
            return Double.NaN;
        }
        double wake = Double.NaN;
        for (RunningJob r : stillRunning) {
            double gpus = r.job().gpus();
            if (gpus <= 0) {
                continue;
            }
            double attained = r.attainedGpuSecondsAt(ctx.now());
            int q = queueOf(attained);
            if (q < thresholdsGpuS.length) {
                double at = ctx.now() + (thresholdsGpuS[q] - attained) / gpus;
                if (Double.isNaN(wake) || at < wake) {
                    wake = at;
                }
            }
        }
        return wake;
    }
}
