package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.framework.VictimChooser;
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
    /** The baselines model preemption as free (see above). */
    private static final VictimChooser FREE_PREEMPTION = new VictimChooser(0);

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
        List<Keyed<RunningJob>> keyed = new ArrayList<>(ctx.running().size());
        for (RunningJob r : ctx.running()) {
            if (!r.preemptible()) {
                continue; // room that is taken, not ours to free
            }
            keyed.add(new Keyed<>(r, r.job(), urgency(r.job(), r.attainedGpuSecondsAt(ctx.now()), ctx)));
        }
        keyed.sort(mostUrgentFirst.reversed());
        List<VictimChooser.Candidate> victims = new ArrayList<>(keyed.size());
        keyed.forEach(k -> victims.add(new VictimChooser.Candidate(k.item(), k.key())));

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
                nodes = placeByPreempting(p, victims, preemptedIds, preempted, placer);
            }
            if (nodes != null) {
                placements.add(new Placement(p.job().id(), nodes));
            } else {
                stillPending.add(p.job());
            }
        }
        queue.forEach(k -> stillPending.add(k.job()));
        List<RunningJob> stillRunning = new ArrayList<>();
        for (VictimChooser.Candidate v : victims) {
            if (!preemptedIds.contains(v.id())) {
                stillRunning.add(v.running());
            }
        }
        return new Decision(placements, preempted, nextWake(ctx, stillRunning, stillPending));
    }

    private static boolean hasLessUrgent(List<VictimChooser.Candidate> victims, Set<String> gone, double key) {
        for (VictimChooser.Candidate v : victims) {
            if (v.urgency() <= key) {
                return false; // sorted least urgent first: nothing further down is less urgent
            }
            if (!gone.contains(v.id())) {
                return true;
            }
        }
        return false;
    }

    /** Stops less urgent jobs (the shared {@link VictimChooser}) until the job can be placed; commits only then. */
    private List<String> placeByPreempting(Keyed<JobRequest> p, List<VictimChooser.Candidate> victims,
                                           Set<String> preemptedIds, List<String> preempted, GangPlacer placer) {
        List<List<String>> placed = new ArrayList<>(1);
        VictimChooser.Plan plan = FREE_PREEMPTION.choose(placer, victims, preemptedIds, p.job(), p.key(), trial -> {
            List<String> nodes = trial.mightFit(p.job()) ? trial.place(p.job()) : null;
            if (nodes != null) {
                placed.add(nodes);
            }
            return nodes != null;
        });
        if (plan == null) {
            return null;
        }
        placer.adopt(plan.trial());
        for (VictimChooser.Candidate v : plan.victims()) {
            preemptedIds.add(v.id());
            preempted.add(v.id());
        }
        return placed.get(0);
    }
}
