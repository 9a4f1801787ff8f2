package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.JobRequest;

/**
 * ORACLE REFERENCE, NOT DEPLOYABLE: shortest remaining processing time first using each job's
 * <em>true</em> duration ({@link JobRequest#trueDurationS()}), which no real scheduler knows.
 * Preemptive: a job with strictly less remaining time stops the one with the most. It is the
 * practical floor that the deployable policies are measured against.
 */
public final class SrptOraclePolicy extends PreemptivePriorityPolicy {

    public static final String NAME = "srpt-oracle";

    public SrptOraclePolicy() {
        super(NAME, NodeScorer.MOST_ALLOCATED);
    }

    @Override
    protected double urgency(JobRequest job, double attainedGpuS, SchedulingContext ctx) {
        double gpus = job.gpus();
        double executed = gpus > 0 ? attainedGpuS / gpus : 0;
        double remaining = job.trueDurationS() - executed;
        if (Double.isNaN(remaining)) {
            throw new IllegalStateException("srpt-oracle needs true durations; job " + job.id() + " has none");
        }
        return Math.max(0, remaining);
    }
}
