package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;

/** Stage two: may one task of {@code job} go onto a node with {@code free} left? Like a Filter plugin. */
@FunctionalInterface
public interface NodeFilter {
    boolean admits(JobRequest job, NodeView node);

    /** The filter every policy needs: the task fits in what is free. */
    NodeFilter FITS = (job, node) -> node.free().covers(job.perTask());

    /** What a filter or scorer sees of a node during one scheduling round (tentative placements included). */
    record NodeView(String name, Resources capacity, Resources free, int runningTasks) {
        public Resources allocated() {
            return capacity.minus(free);
        }
    }
}
