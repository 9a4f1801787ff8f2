package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a policy sees in one scheduling round. The policy must not change {@code cluster}: the caller
 * (simulator or live scheduler) applies the placements it returns.
 *
 * @param now     current time on the caller's clock, seconds
 * @param pending jobs waiting, in arrival order
 * @param cluster capacity and allocation of every node
 * @param running jobs holding resources now (empty when the caller does not track them)
 * @param pendingAttainedGpuS GPU-seconds of service that pending jobs already received before they were
 *                preempted; a job absent from the map has received none
 * @param pendingNotPreemptible ids of pending jobs that no policy may stop once they start (submitted as not
 *                preemptible, or every job where the caller does not preempt); may name jobs not in {@code pending}.
 *                A policy that tries things out (SAC's live exploration) leaves these jobs alone, since a bad
 *                placement of theirs cannot be undone
 */
public record SchedulingContext(double now, List<JobRequest> pending, ClusterState cluster,
                                List<RunningJob> running, Map<String, Double> pendingAttainedGpuS,
                                Set<String> pendingNotPreemptible) {

    public SchedulingContext {
        pending = List.copyOf(pending);
        running = List.copyOf(running);
        pendingAttainedGpuS = Map.copyOf(pendingAttainedGpuS);
        pendingNotPreemptible = Set.copyOf(pendingNotPreemptible);
    }

    /** Without the pending jobs' preemptibility: every pending job counts as one a policy may stop once started. */
    public SchedulingContext(double now, List<JobRequest> pending, ClusterState cluster, List<RunningJob> running,
                             Map<String, Double> pendingAttainedGpuS) {
        this(now, pending, cluster, running, pendingAttainedGpuS, Set.of());
    }

    /** The original three-argument form: no knowledge of running jobs or past service. */
    public SchedulingContext(double now, List<JobRequest> pending, ClusterState cluster) {
        this(now, pending, cluster, List.of(), Map.of());
    }

    /** GPU-seconds a job has received so far (pending or running), as 2D-LAS policies need. */
    public double attainedGpuSeconds(JobRequest job) {
        for (RunningJob r : running) {
            if (r.job().id().equals(job.id())) {
                return r.attainedGpuSecondsAt(now);
            }
        }
        return pendingAttainedGpuS.getOrDefault(job.id(), 0.0);
    }

    /** Running jobs by id, for policies that look them up repeatedly. */
    public Map<String, RunningJob> runningById() {
        Map<String, RunningJob> byId = new HashMap<>(running.size() * 2);
        for (RunningJob r : running) {
            byId.put(r.job().id(), r);
        }
        return byId;
    }
}
