package io.gantry.scheduling.framework;

import io.gantry.scheduling.framework.NodeFilter.NodeView;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A policy assembled from plugins the way kube-scheduler is: sort the queue, then for each job in
 * that order filter the nodes, score the survivors and take the best for every task of the gang.
 * A job that does not fit now is skipped (it stays pending) and later jobs may still start, as in
 * kube-scheduler; a policy that must not be overtaken sets {@code headOfLineBlocking}.
 */
public class FrameworkPolicy implements SchedulingPolicy {

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
    public List<Placement> schedule(SchedulingContext ctx) {
        List<JobRequest> queue = new ArrayList<>(ctx.pending());
        queue.sort(queueSort.order(ctx));
        Map<String, Resources> free = new HashMap<>();
        Map<String, Integer> running = new HashMap<>();
        for (NodeState n : ctx.cluster().nodes()) {
            free.put(n.name(), n.free());
            running.put(n.name(), n.runningTasks());
        }
        List<Placement> out = new ArrayList<>();
        for (JobRequest job : queue) {
            List<String> gang = placeGang(job, ctx, free, running);
            if (gang != null) {
                out.add(new Placement(job.id(), gang));
            } else if (headOfLineBlocking) {
                break;
            }
        }
        return out;
    }

    /** Places every task or none; on success the tentative {@code free} map is charged. */
    private List<String> placeGang(JobRequest job, SchedulingContext ctx, Map<String, Resources> free,
                                   Map<String, Integer> running) {
        Map<String, Resources> trialFree = new HashMap<>(free);
        Map<String, Integer> trialRunning = new HashMap<>(running);
        List<String> nodes = new ArrayList<>(job.tasks());
        for (int t = 0; t < job.tasks(); t++) {
            String best = null;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (NodeState n : ctx.cluster().nodes()) {
                NodeView view = new NodeView(n.name(), n.capacity(), trialFree.get(n.name()), trialRunning.get(n.name()));
                if (!admitted(job, view)) {
                    continue;
                }
                double s = scorer.score(job, view);
                if (s > bestScore) {
                    bestScore = s;
                    best = n.name();
                }
            }
            if (best == null) {
                return null;
            }
            trialFree.put(best, trialFree.get(best).minus(job.perTask()));
            trialRunning.merge(best, 1, Integer::sum);
            nodes.add(best);
        }
        free.putAll(trialFree);
        running.putAll(trialRunning);
        return nodes;
    }

    private boolean admitted(JobRequest job, NodeView view) {
        if (!NodeFilter.FITS.admits(job, view)) {
            return false;
        }
        for (NodeFilter f : filters) {
            if (!f.admits(job, view)) {
                return false;
            }
        }
        return true;
    }
}
