package io.gantry.scheduler.service;

import io.gantry.events.JobTuned;
import io.gantry.scheduler.mapping.Amounts;
import io.gantry.scheduling.model.Resources;
import java.util.List;

/**
 * A job that received a decision for its {@code attempt}-th start and still holds resources (or, while
 * stopping, held them). {@code job} is null for a job restored from a decision whose submission is no longer on
 * the tuned topic: it can be released, not re-queued. {@code startedAt} is on the jobs' clock.
 */
record LiveStint(JobTuned job, List<String> nodes, Resources perTask, int attempt, double startedAt,
                double attainedGpuSBefore, double ranSBefore) {

    double gpus() {
        return perTask.gpus() * nodes.size();
    }

    /** The stint with its job's newer tuning (a re-tune while it runs); the room it holds is unchanged. */
    LiveStint withJob(JobTuned newer) {
        return new LiveStint(newer, nodes, perTask, attempt, startedAt, attainedGpuSBefore, ranSBefore);
    }

    /** Whether the room it holds is what its job's tuning asks for (no tuning known: it is). */
    boolean holdsAsTuned() {
        return job == null || job.tasks() == nodes.size() && Amounts.resources(job.perTask()).equals(perTask);
    }
}
