package io.gantry.scheduler.service;

import io.gantry.events.JobTuned;
import io.gantry.scheduler.mapping.Amounts;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Why one pending job waits, in words a user reads: the reason {@link PendingReasonMeters} counts it under, with the
 * amounts behind it (what the job needs at once, the most one schedulable node has free, the free total), and how
 * many jobs that arrived before it still wait.
 *
 * @param position arrival position in the queue, 1 = the oldest waiting job
 * @param code     the {@code reason} label of {@code gantry_scheduler_pending_jobs}
 * @param reason   e.g. "needs 4 GPUs (4 tasks of 1 GPU), largest free on one node 2, 3 free in all; 3 jobs ahead"
 */
public record PendingExplanation(int position, String jobId, String user, int tasks, String code, String reason,
                                 int ahead, String policy) {

    /** The explanation for {@code jobId}, or empty when the scheduler holds no such pending job. */
    public static Optional<PendingExplanation> of(LiveEngine state, String jobId) {
        List<JobTuned> queue = state.pendingJobs();
        for (int i = 0; i < queue.size(); i++) {
            JobTuned j = queue.get(i);
            if (j.jobId().equals(jobId)) {
                List<NodeState> nodes = state.schedulableView().nodes();
                Resources perTask = Amounts.resources(j.perTask());
                PendingReasonMeters.Reason r = PendingReasonMeters.reason(j.tasks(), perTask, nodes);
                String text = words(r, j.tasks(), perTask, nodes, state.policyName()) + "; " + ahead(i);
                return Optional.of(new PendingExplanation(i + 1, jobId, j.user(), j.tasks(), r.label, text, i,
                        state.policyName()));
            }
        }
        return Optional.empty();
    }

    private static String words(PendingReasonMeters.Reason r, int tasks, Resources perTask, List<NodeState> nodes,
                                String policy) {
        return switch (r) {
            case NO_SCHEDULABLE_NODE -> "no node is schedulable (none reported, or all cordoned)";
            case INSUFFICIENT_GPU -> shortOf("GPUs", tasks, perTask.gpuMilli() / 1000.0,
                    nodes.stream().mapToDouble(n -> n.free().gpuMilli() / 1000.0).toArray());
            case INSUFFICIENT_CPU -> shortOf("vCPUs", tasks, perTask.cpuMilli() / 1000.0,
                    nodes.stream().mapToDouble(n -> n.free().cpuMilli() / 1000.0).toArray());
            case INSUFFICIENT_MEMORY -> shortOf("GiB of memory", tasks, perTask.memoryMib() / 1024.0,
                    nodes.stream().mapToDouble(n -> n.free().memoryMib() / 1024.0).toArray());
            case WAITING_FOR_POLICY -> "the free resources could hold it now: it waits for policy " + policy
                    + " to place it (a round is due, or other jobs go first)";
        };
    }

    private static String shortOf(String unit, int tasks, double perTask, double[] freePerNode) {
        double largest = 0;
        double total = 0;
        for (double f : freePerNode) {
            largest = Math.max(largest, Math.max(0, f));
            total += Math.max(0, f);
        }
        return String.format(Locale.ROOT, "needs %s %s (%d task%s of %s), largest free on one node %s, %s free in all",
                num(tasks * perTask), unit, tasks, tasks == 1 ? "" : "s", num(perTask), num(largest), num(total));
    }

    private static String ahead(int ahead) {
        return ahead == 0 ? "no job ahead of it" : ahead + (ahead == 1 ? " job" : " jobs")
                + " that arrived before it still wait" + (ahead == 1 ? "s" : "");
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
