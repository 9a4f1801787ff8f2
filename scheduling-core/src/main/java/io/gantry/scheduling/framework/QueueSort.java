package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import java.util.Comparator;

/** Stage one: which pending job is considered first. Like kube-scheduler's QueueSort plugin. */
@FunctionalInterface
public interface QueueSort {
    Comparator<JobRequest> order(SchedulingContext ctx);

    /**
     * The order when it is a function of the jobs alone (not of time, the cluster or running jobs),
     * else null. A caller may then keep its pending queue sorted between rounds instead of re-sorting
     * every round. Null by default: an order that changes with time (attained service, shares) must
     * never be cached, so opting in is explicit, through {@link #fixed}.
     */
    default Comparator<JobRequest> fixedOrder() {
        return null;
    }

    /** A queue order that never changes while jobs wait (priority, arrival, a prediction made at submission). */
    static QueueSort fixed(Comparator<JobRequest> order) {
        return new QueueSort() {
            @Override
            public Comparator<JobRequest> order(SchedulingContext ctx) {
                return order;
            }

            @Override
            public Comparator<JobRequest> fixedOrder() {
                return order;
            }
        };
    }
}
