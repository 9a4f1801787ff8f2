package io.gantry.scheduling.readme;

import io.gantry.scheduling.framework.FrameworkPolicy;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.QueueSort;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.policy.PolicyProvider;
import java.util.Comparator;
import java.util.List;

/** Fewest GPUs first (then arrival), each task on the fullest node it fits: a queue sort and a scorer. */
public final class SmallestGangFirstPolicy extends FrameworkPolicy {

    public static final String NAME = "smallest-gang-first";

    public SmallestGangFirstPolicy() {
        super(NAME,
                QueueSort.fixed(Comparator.comparingDouble(JobRequest::gpus)
                        .thenComparingDouble(JobRequest::submitTime)
                        .thenComparing(JobRequest::id)),
                List.of(),                   // filters beyond "the task fits": none
                NodeScorer.MOST_ALLOCATED,   // pack
                false);                      // a job that does not fit does not hold back the next
    }

    /** Found by PolicyRegistry through META-INF/services/io.gantry.scheduling.policy.PolicyProvider. */
    public static final class Provider implements PolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public SchedulingPolicy create() {
            return new SmallestGangFirstPolicy();
        }
    }
}
