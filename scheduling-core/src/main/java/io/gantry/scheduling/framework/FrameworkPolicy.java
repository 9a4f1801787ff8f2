package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A policy assembled from plugins the way kube-scheduler is: sort the queue, then for each job in
 * that order filter the nodes, score the survivors and take the best for every task of the gang.
 * A job that does not fit now is skipped (it stays pending) and later jobs may still start, as in
 * kube-scheduler; a policy that must not be overtaken sets {@code headOfLineBlocking}. When the
 * queue sort is {@link QueueSort#fixed} the caller may keep the queue sorted between rounds
 * ({@link OrderedQueueScheduling}); both entry points share one placement loop.
 */
public class FrameworkPolicy implements SchedulingPolicy, OrderedQueueScheduling {

    private final String name;
    private final QueueSort queueSort;
    private final List<NodeFilter> filters;
    private final NodeScorer scorer;
    private final boolean headOfLineBlocking;

    public FrameworkPolicy(String name, QueueSort queueSort, List<NodeFilter> filters, NodeScorer scorer,
                           boolean headOfLineBlocking) {
        this.name = name;
        this.queueSort = queueSort;
        this.filters = List.copyOf(filters);
        this.scorer = scorer;
        this.headOfLineBlocking = headOfLineBlocking;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        // A heap instead of a full sort: jobs are taken in order only until the cluster is too full for
        // even the smallest request, which after a single completion is usually a handful of jobs.
        PriorityQueue<JobRequest> queue = new PriorityQueue<>(Math.max(1, ctx.pending().size()), queueSort.order(ctx));
        queue.addAll(ctx.pending());
        Iterator<JobRequest> inOrder = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !queue.isEmpty();
            }

            @Override
            public JobRequest next() {
                return queue.poll();
            }
        };
        return Decision.placeOnly(placeInOrder(newPlacer(ctx.cluster()), inOrder,
                GangPlacer.smallestRequest(ctx.pending())));
    }

    @Override
    public Comparator<JobRequest> fixedQueueOrder() {
        return queueSort.fixedOrder();
    }

    @Override
    public List<Placement> scheduleInOrder(double now, ClusterState cluster, Iterator<JobRequest> inOrder,
                                           Resources smallest) {
        if (fixedQueueOrder() == null) {
            throw new IllegalStateException(name + " has no fixed queue order; call schedule");
        }
        return placeInOrder(newPlacer(cluster), inOrder, smallest);
    }

    private List<Placement> placeInOrder(GangPlacer placer, Iterator<JobRequest> inOrder, Resources smallest) {
        List<Placement> out = new ArrayList<>();
        while (inOrder.hasNext() && placer.mightFit(smallest)) {
            JobRequest job = inOrder.next();
            List<String> gang = placer.place(job);
            if (gang != null) {
                out.add(new Placement(job.id(), gang));
            } else if (headOfLineBlocking) {
                break;
            }
        }
        return out;
    }

    @Override
    public boolean skipsJobsThatDoNotFit() {
        return !headOfLineBlocking;
    }

    /** A placer over the cluster as it stands, with this policy's filters and scorer. */
    protected GangPlacer newPlacer(ClusterState cluster) {
        return new GangPlacer(cluster.nodes(), filters, scorer);
    }

    protected NodeScorer scorer() {
        return scorer;
    }
}
