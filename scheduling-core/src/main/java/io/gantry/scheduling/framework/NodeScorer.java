package io.gantry.scheduling.framework;

import io.gantry.scheduling.framework.NodeFilter.NodeView;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;

/** Stage three: how good a feasible node is for one task of a job; the highest score wins. Like a Score plugin. */
@FunctionalInterface
public interface NodeScorer {
    double score(JobRequest job, NodeView node);

    /** kube-scheduler's NodeResourcesFit LeastAllocated: prefer the node left emptiest (spreads load). */
    NodeScorer LEAST_ALLOCATED = (job, node) -> meanFreeRatioAfter(job.perTask(), node);

    /** kube-scheduler's NodeResourcesFit MostAllocated: prefer the node left fullest (packs, fights fragmentation). */
    NodeScorer MOST_ALLOCATED = (job, node) -> 1.0 - meanFreeRatioAfter(job.perTask(), node);

    /** Mean over the dimensions the node has of (free after placing the task) ÷ capacity. */
    static double meanFreeRatioAfter(Resources task, NodeView node) {
        Resources cap = node.capacity();
        Resources left = node.free().minus(task);
        double sum = 0;
        int dims = 0;
        if (cap.gpuMilli() > 0) {
            sum += (double) left.gpuMilli() / cap.gpuMilli();
            dims++;
        }
        if (cap.cpuMilli() > 0) {
            sum += (double) left.cpuMilli() / cap.cpuMilli();
            dims++;
        }
        if (cap.memoryMib() > 0) {
            sum += (double) left.memoryMib() / cap.memoryMib();
            dims++;
        }
        return dims == 0 ? 0 : sum / dims;
    }
}
