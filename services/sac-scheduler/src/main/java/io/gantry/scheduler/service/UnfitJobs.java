package io.gantry.scheduler.service;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.List;

/** Which waiting jobs can never run on the nodes the scheduler knows, and why (the reason a rejection carries). */
final class UnfitJobs {

    private UnfitJobs() {
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
