package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Shared machinery of the preemptive baselines: every job, running or pending, gets an urgency key
 * (lower is more urgent; ties by arrival, then id). Pending jobs are offered in key order; one that
 * does not fit in the free space may stop running jobs with a strictly larger key, least urgent
 * first, but only if that actually makes room for it (no pointless preemptions). A subclass
 * supplies the key and nothing else.
 *
 * <p>Preemption is modelled as free: a stopped job keeps its progress and resumes later on any
 * node (checkpoint/restore cost is not charged). Planning a preemption costs O(running × nodes),
 * so at most {@link #MAX_PREEMPTION_ATTEMPTS} jobs per round may try it; the rest wait for
 * the next round (the next arrival or completion), as a real scheduler's bounded cycle would.
 */
public abstract class PreemptivePriorityPolicy implements SchedulingPolicy {

    static final int MAX_PREEMPTION_ATTEMPTS = 32;

    private final String name;
    private final NodeScorer scorer;

    protected PreemptivePriorityPolicy(String name, NodeScorer scorer) {
        this.name = name;
        this.scorer = scorer;
    }

    /** Urgency of a job now; lower runs first. {@code attainedGpuS} is the service it has received. */
    protected abstract double urgency(JobRequest job, double attainedGpuS, SchedulingContext ctx);

    /** When this policy wants to look again although nothing arrived or finished; NaN for never. */
    protected double nextWake(SchedulingContext ctx, List<RunningJob> stillRunning, List<JobRequest> stillPending) {
        return Double.NaN;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        return plan(ctx);
    }

    private record Keyed<T>(T item, JobRequest job, double key) {
    }

    /** Victims are the running jobs flagged preemptible: where none is, this only places into free room. */
    private Decision plan(SchedulingContext ctx) {
        Comparator<Keyed<?>> mostUrgentFirst = Comparator.<Keyed<?>>comparingDouble(Keyed::key)
                .thenComparingDouble(k -> k.job().submitTime())
                .thenComparing(k -> k.job().id());
        List<Keyed<JobRequest>> pending = new ArrayList<>(ctx.pending().size());
        for (JobRequest j : ctx.pending()) {
            pending.add(new Keyed<>(j, j, urgency(j, ctx.pendingAttainedGpuS().getOrDefault(j.id(), 0.0), ctx)));
        }
        PriorityQueue<Keyed<JobRequest>> queue = new PriorityQueue<>(Math.max(1, pending.size()), mostUrgentFirst);
        queue.addAll(pending);
        Resources smallest = GangPlacer.smallestRequest(ctx.pending());
        // Victims are tried least urgent first.
        List<Keyed<RunningJob>> victims = new ArrayList<>(ctx.running().size());
        for (RunningJob r : ctx.running()) {
            if (!r.preemptible()) {
                continue; // room that is taken, not ours to free
            }
            victims.add(new Keyed<>(r, r.job(), urgency(r.job(), r.attainedGpuSecondsAt(ctx.now()), ctx)));
        }
        victims.sort(mostUrgentFirst.reversed());

        GangPlacer placer = new GangPlacer(ctx.cluster().nodes(), List.of(), scorer);
        List<Placement> placements = new ArrayList<>();
        List<String> preempted = new ArrayList<>();
        Set<String> preemptedIds = new HashSet<>();
        List<JobRequest> stillPending = new ArrayList<>();
        int attempts = 0;
        while (!queue.isEmpty()) {
            Keyed<JobRequest> p = queue.peek();
            // Nothing fits any more and nothing left in the queue may preempt: the rest just stay pending.
            if (!placer.mightFit(smallest) && (attempts >= MAX_PREEMPTION_ATTEMPTS
                    || !hasLessUrgent(victims, preemptedIds, p.key()))) {
                break;
            }
            queue.poll();
            List<String> nodes = placer.place(p.job());
            if (nodes == null && attempts < MAX_PREEMPTION_ATTEMPTS && hasLessUrgent(victims, preemptedIds, p.key())) {
                attempts++;
                nodes = placeByPreempting(ctx, p, victims, preemptedIds, preempted, placer);
            }
            if (nodes != null) {
                placements.add(new Placement(p.job().id(), nodes));
            } else {
                stillPending.add(p.job());
            }
        }
        queue.forEach(k -> stillPending.add(k.job()));
        List<RunningJob> stillRunning = new ArrayList<>();
        for (Keyed<RunningJob> v : victims) {
            if (!preemptedIds.contains(v.job().id())) {
                stillRunning.add(v.item());
            }
        }
        return new Decision(placements, preempted, nextWake(ctx, stillRunning, stillPending));
    }

    private static boolean hasLessUrgent(List<Keyed<RunningJob>> victims, Set<String> gone, double key) {
        for (Keyed<RunningJob> v : victims) {
            if (v.key() <= key) {
                return false; // sorted least urgent first: nothing further down is less urgent
            }
            if (!gone.contains(v.job().id())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Frees room by stopping less urgent jobs one at a time on a trial copy of the placer; commits only
     * if the job then fits, so a failed attempt changes nothing.
     */
    private List<String> placeByPreempting(SchedulingContext ctx, Keyed<JobRequest> p, List<Keyed<RunningJob>> victims,
                                           Set<String> preemptedIds, List<String> preempted, GangPlacer placer) {
        GangPlacer trial = placer.copy();
        List<String> chosen = new ArrayList<>();
        for (Keyed<RunningJob> v : victims) {
            if (v.key() <= p.key()) {
                break;
            }
            if (preemptedIds.contains(v.job().id())) {
                continue;
            }
            trial.release(v.item().nodes(), v.job().perTask());
            chosen.add(v.job().id());
            if (trial.mightFit(p.job())) {
                List<String> nodes = trial.place(p.job());
                if (nodes != null) {
                    placer.adopt(trial);
                    preemptedIds.addAll(chosen);
                    preempted.addAll(chosen);
                    return nodes;
                }
            }
        }
        return null;
    }
}
