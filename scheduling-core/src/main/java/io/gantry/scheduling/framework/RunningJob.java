package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/**
 * A job that holds resources now.
 *
 * @param nodes     where each task runs ({@code nodes.get(i)} holds task i)
 * @param startedAt when this stint began (a preempted job that resumes starts a new stint)
 * @param attainedGpuSecondsAtStart GPU-seconds the job had received before this stint
 * @param preemptible whether a policy may stop it (false for a job submitted as not preemptible, and for every job
 *                    when the caller cannot stop jobs); a policy sees it either way, as room that is taken
 */
public record RunningJob(JobRequest job, List<String> nodes, double startedAt, double attainedGpuSecondsAtStart,
                         boolean preemptible) {

    public RunningJob {
        nodes = List.copyOf(nodes);
    }

    /** A running job that may be stopped. */
    public RunningJob(JobRequest job, List<String> nodes, double startedAt, double attainedGpuSecondsAtStart) {
        this(job, nodes, startedAt, attainedGpuSecondsAtStart, true);
    }

    /** Service received up to {@code now}: earlier stints plus this one. */
    public double attainedGpuSecondsAt(double now) {
        return attainedGpuSecondsAtStart + Math.max(0, now - startedAt) * job.gpus();
    }

    /** Seconds of this job's own run time that elapsed up to {@code now} (over all stints). */
    public double executedSecondsAt(double now) {
        double gpus = job.gpus();
        return gpus > 0 ? attainedGpuSecondsAt(now) / gpus : Math.max(0, now - startedAt);
    }
}
