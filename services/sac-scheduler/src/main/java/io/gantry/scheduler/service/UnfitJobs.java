package io.gantry.scheduler.service;

import io.gantry.events.JobRejected;
import io.gantry.scheduler.mapping.Decisions;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/** Which waiting jobs can never run on the nodes the scheduler knows, and why (the reason a rejection carries). */
final class UnfitJobs {

    private UnfitJobs() {
    }

    /**
     * Rejects the jobs of {@code unchecked} bigger than every node (per task) or than the whole cluster (the gang):
     * they will never run. {@code unchecked} is emptied; {@code remove} takes a rejected job out of the queue.
     */
    static List<JobRejected> reject(Set<String> unchecked, Function<String, PendingJob> pending, ClusterState cluster,
                                    Instant now, Consumer<String> remove) {
        List<JobRejected> out = new ArrayList<>();
        for (String jobId : unchecked) {
            PendingJob p = pending.apply(jobId);
            String reason = p == null ? null : whyNever(p, cluster); // null too when decided or gone since
            if (reason != null) {
                remove.accept(jobId);
                out.add(Decisions.neverFits(now, p.job(), reason));
            }
        }
        unchecked.clear();
        return out;
    }

    /** Why {@code p} will never run (a task bigger than every node, or a gang bigger than the cluster); null if it may. */
    static String whyNever(PendingJob p, ClusterState cluster) {
        Resources perTask = p.perTask();
        List<NodeState> nodes = cluster.nodes();
        if (nodes.stream().noneMatch(n -> n.capacity().covers(perTask))) {
            return "each task requests " + describe(perTask) + "; no node has that much capacity";
        }
        if (!cluster.totalCapacity().covers(perTask.times(p.job().tasks()))) {
            return "the gang of " + p.job().tasks() + " tasks needs more than the whole cluster";
        }
        return null;
    }

    private static String describe(Resources r) {
        return r.gpus() + " GPU, " + r.cpuMilli() / 1000.0 + " vCPU, " + r.memoryMib() + " MiB";
    }
}
