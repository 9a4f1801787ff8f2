package io.gantry.scheduling.engine;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.OrderedQueueScheduling;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.framework.SortedPendingQueue;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one scheduling round engine, driven by the simulator (virtual time) and by the live sac-scheduler (the jobs'
 * clock): the pending queue, the running jobs and what they hold, and the rules of a round. A round asks the policy
 * once and applies its {@link Decision}: victims are stopped (released, handed back to the driver, which queues them
 * again when their stop is done), placements are checked (pending job, whole gang) and reserved, and a
 * {@link Decision#wakeAt()} is kept as the next time a round is due even if nothing arrives or finishes.
 *
 * <p>Every policy sees every running job, each with its preemptible flag; a victim that is not preemptible is a
 * policy bug and fails the round. The engine only times nothing and counts nothing: what a job costs, when it ends
 * and what is metered is the driver's.
 *
 * <p>Cost: a policy with a fixed queue order ({@link OrderedQueueScheduling}) gets the pending jobs kept sorted
 * between rounds and walks them from the front only until nothing fits; any other policy is handed the whole
 * pending queue. When nothing was released, woken or changed since the last round and the policy never lets a
 * non-fitting job block others ({@link SchedulingPolicy#skipsJobsThatDoNotFit()}), every older pending job already
 * failed to fit in more free space than there is now, so only the jobs queued since are offered.
 */
public final class SchedulingEngine {

    /**
     * What a round did: the jobs it started (as now running) and the ones it stopped (as they ran until now), in
     * the policy's order. {@code ran} is false when no round was needed (nothing could change).
     */
    public record Round(List<RunningJob> started, List<RunningJob> stopped, boolean ran) {
        public static final Round NONE = new Round(List.of(), List.of(), false);
    }

    private static final double WAKE_EPSILON_S = 1e-6;

    private final ClusterState cluster;
    private final Allocator allocator;
    private final boolean preemption;
    private SchedulingPolicy policy;
    private OrderedQueueScheduling ordered;
    private SortedPendingQueue sorted;
    private final Map<String, JobRequest> pending = new LinkedHashMap<>();
    private final Map<String, Double> pendingAttained = new HashMap<>();
    private final Map<String, RunningJob> running = new LinkedHashMap<>();
    private final Set<String> notPreemptible = new HashSet<>();
    private final Set<String> cordoned = new HashSet<>();
    /** Jobs queued since the last round: if nothing was freed since, only these can be placed now. */
    private final List<JobRequest> arrived = new ArrayList<>();
    private boolean mayHaveGrown = true;
    private double wakeAt = Double.NaN;
    private long rounds;

    /**
     * @param cluster    the nodes; the engine reserves on it through {@code allocator}
     * @param preemption whether the policy may stop running jobs at all (off: every running job is shown as not
     *                   preemptible)
     */
    public SchedulingEngine(SchedulingPolicy policy, ClusterState cluster, Allocator allocator, boolean preemption) {
        this.cluster = cluster;
        this.allocator = allocator;
        this.preemption = preemption;
        usePolicy(policy);
    }

    /** From the next round on {@code policy} decides; the queue is kept (and re-sorted for a fixed-order policy). */
    public void usePolicy(SchedulingPolicy policy) {
        this.policy = policy;
        this.ordered = policy instanceof OrderedQueueScheduling o && o.fixedQueueOrder() != null ? o : null;
        this.sorted = ordered == null ? null : new SortedPendingQueue(ordered.fixedQueueOrder());
        if (sorted != null) {
            pending.values().forEach(sorted::add);
        }
        mayHaveGrown = true;
    }

    public SchedulingPolicy policy() {
        return policy;
    }

    /** Queues a job that has received no service. */
    public void submit(JobRequest job, boolean preemptible) {
        queue(job, preemptible);
    }

    /** Queues a job again (after a preemption or a retry) with the GPU-seconds of service it already received. */
    public void requeue(JobRequest job, double attainedGpuS, boolean preemptible) {
        queue(job, preemptible);
        pendingAttained.put(job.id(), attainedGpuS);
    }

    private void queue(JobRequest job, boolean preemptible) {
        if (pending.containsKey(job.id()) || running.containsKey(job.id())) {
            throw new IllegalStateException("job " + job.id() + " is already queued or running");
        }
        pending.put(job.id(), job);
        if (sorted != null) {
            sorted.add(job);
        }
        arrived.add(job);
        flagPreemptible(job.id(), preemptible);
    }

    /**
     * Lets policies stop a running job, or holds it back from them: a live driver holds a job back until the
     * cluster confirms it started, since stopping a stint it only decided is judged on a state not yet seen.
     */
    public void setPreemptible(String jobId, boolean preemptible) {
        if (!running.containsKey(jobId)) {
            throw new IllegalStateException("job " + jobId + " is not running");
        }
        flagPreemptible(jobId, preemptible);
    }

    private void flagPreemptible(String jobId, boolean preemptible) {
        if (preemptible) {
            notPreemptible.remove(jobId);
        } else {
            notPreemptible.add(jobId);
        }
    }

    /** Replaces a pending job's request (a new priority); it keeps its place in arrival order. */
    public void reprice(JobRequest job) {
        JobRequest old = pending.get(job.id());
        if (old == null) {
            throw new IllegalStateException("job " + job.id() + " is not pending");
        }
        pending.put(job.id(), job);
        if (sorted != null) {
            sorted.remove(old);
            sorted.add(job);
        }
    }

    /** Takes a pending job out of the queue (rejected, withdrawn); null when it was not pending. */
    public JobRequest withdraw(String jobId) {
        JobRequest r = pending.remove(jobId);
        if (r != null) {
            if (sorted != null) {
                sorted.remove(r);
            }
            pendingAttained.remove(jobId);
            notPreemptible.remove(jobId);
        }
        return r;
    }

    /** A running job ended (finished, failed, stopped by the cluster): its room is freed. Null when not running. */
    public RunningJob release(String jobId) {
        RunningJob r = running.remove(jobId);
        if (r != null) {
            allocator.release(r.job(), r.nodes());
            notPreemptible.remove(jobId);
            mayHaveGrown = true;
        }
        return r;
    }

    /**
     * A running job changes size in place (a checkpoint-restart the driver decided, e.g. a re-tuned GPU count): its
     * old room is freed and {@code nodes} reserved for {@code job}, a new stint from {@code now} with the service it
     * already received. The job stays running throughout, so no policy can take its room in between.
     */
    public RunningJob resize(JobRequest job, List<String> nodes, double now) {
        RunningJob old = running.get(job.id());
        if (old == null) {
            throw new IllegalStateException("job " + job.id() + " is not running");
        }
        allocator.release(old.job(), old.nodes());
        allocator.allocate(job, nodes);
        RunningJob r = new RunningJob(job, nodes, now, old.attainedGpuSecondsAt(now), old.preemptible());
        running.put(job.id(), r);
        mayHaveGrown = true;
        return r;
    }

    /** A job known to run already (restored after a restart); its room is the driver's to hold. */
    public void restoreRunning(RunningJob r) {
        running.put(r.job().id(), r);
        if (!r.preemptible()) {
            notPreemptible.add(r.job().id());
        }
        mayHaveGrown = true;
    }

    /** Something outside the queue changed (node capacity, schedulability, priorities): the next round looks at all. */
    public void capacityChanged() {
        mayHaveGrown = true;
    }

    /** Leaves {@code node} out of what policies see (cordoned) or puts it back; true when that changed. */
    public boolean setSchedulable(String node, boolean schedulable) {
        boolean changed = schedulable ? cordoned.remove(node) : cordoned.add(node);
        mayHaveGrown |= changed;
        return changed;
    }

    /** The time a policy asked for another round at, NaN when none is due. */
    public double wakeAt() {
        return wakeAt;
    }

    /**
     * One round at {@code now}: asks the policy unless nothing can have changed, stops its victims and reserves its
     * placements.
     *
     * @throws IllegalStateException when the policy stops a job that is not running or not preemptible, places a
     *         job that is not pending or part of a gang, or over-allocates a node (nothing is applied from then on)
     */
    public Round round(double now) {
        boolean woken = !Double.isNaN(wakeAt) && wakeAt <= now;
        if (woken) {
            wakeAt = Double.NaN;
        }
        // An elastic policy's wake-up may grow or shrink running jobs, so it runs with an empty queue too.
        if (pending.isEmpty() && !(woken && policy instanceof ElasticPolicy)) {
            endRound();
            return Round.NONE;
        }
        List<JobRequest> fresh = stillPending(arrived);
        boolean onlyArrivals = !mayHaveGrown && !woken && policy.skipsJobsThatDoNotFit();
        if (onlyArrivals && fresh.isEmpty()) {
            endRound();
            return Round.NONE;
        }
        rounds++;
        Decision d = decide(now, onlyArrivals, fresh);
        endRound();
        List<RunningJob> stopped = stop(d.preemptions());
        List<RunningJob> started = start(now, d.placements());
        if (!Double.isNaN(d.wakeAt()) && d.wakeAt() > now + WAKE_EPSILON_S) {
            wakeAt = d.wakeAt();
        }
        return new Round(started, stopped, true);
    }

    private void endRound() {
        arrived.clear();
        mayHaveGrown = false;
    }

    private List<JobRequest> stillPending(List<JobRequest> jobs) {
        List<JobRequest> out = new ArrayList<>(jobs.size());
        for (JobRequest r : jobs) {
            if (pending.get(r.id()) == r) {
                out.add(r); // not decided, withdrawn or repriced since it was queued
            }
        }
        return out;
    }

    /** The cluster as policies see it: cordoned nodes left out. */
    public ClusterState view() {
        return cordoned.isEmpty() ? cluster : cluster.without(cordoned);
    }

    private Decision decide(double now, boolean onlyArrivals, List<JobRequest> fresh) {
        ClusterState view = view();
        if (sorted != null) {
            Iterator<JobRequest> inOrder;
            Resources smallest;
            if (onlyArrivals) {
                fresh.sort(sorted.order());
                inOrder = fresh.iterator();
                smallest = GangPlacer.smallestRequest(fresh);
            } else {
                inOrder = sorted.inOrder();
                smallest = sorted.smallestRequest();
            }
            return Decision.placeOnly(ordered.scheduleInOrder(now, view, inOrder, smallest));
        }
        List<JobRequest> offered = onlyArrivals ? fresh : new ArrayList<>(pending.values());
        return policy.decide(new SchedulingContext(now, offered, view, runningJobs(), pendingAttained,
                pendingNotPreemptible()));
    }

    /** Pending jobs no policy may stop once started: all of them without preemption, else those flagged so. */
    private Set<String> pendingNotPreemptible() {
        // notPreemptible is small (jobs submitted so, and stints awaiting their start): filter it, not the queue.
        return preemption ? notPreemptible.stream().filter(pending::containsKey).collect(Collectors.toSet())
                : pending.keySet();
    }

    /** Every running job, flagged preemptible only where the policy may stop it. */
    private List<RunningJob> runningJobs() {
        List<RunningJob> out = new ArrayList<>(running.size());
        for (RunningJob r : running.values()) {
            boolean may = preemption && !notPreemptible.contains(r.job().id());
            out.add(r.preemptible() == may ? r
                    : new RunningJob(r.job(), r.nodes(), r.startedAt(), r.attainedGpuSecondsAtStart(), may));
        }
        return out;
    }

    private List<RunningJob> stop(List<String> victims) {
        List<RunningJob> out = new ArrayList<>(victims.size());
        for (String id : victims) {
            RunningJob r = running.get(id);
            if (r == null) {
                throw new IllegalStateException(policy.name() + " preempted " + id + ", which is not running");
            }
            if (!preemption || notPreemptible.contains(id)) {
                throw new IllegalStateException(policy.name() + " preempted " + id + ", which is not preemptible");
            }
            running.remove(id);
            notPreemptible.remove(id);
            allocator.release(r.job(), r.nodes());
            out.add(r);
        }
        return out;
    }

    private List<RunningJob> start(double now, List<Placement> placements) {
        List<RunningJob> out = new ArrayList<>(placements.size());
        for (Placement p : placements) {
            JobRequest job = pending.get(p.jobId());
            if (job == null) {
                throw new IllegalStateException(policy.name() + " placed " + p.jobId() + ", which is not pending");
            }
            if (policy instanceof ElasticPolicy elastic) {
                job = elastic.resized(job, p.nodes().size());
            } else if (p.nodes().size() != job.tasks()) {
                throw new IllegalStateException(policy.name() + " placed " + p.nodes().size() + " of "
                        + job.tasks() + " tasks of gang " + p.jobId());
            }
            JobRequest queued = pending.remove(p.jobId());
            if (sorted != null) {
                sorted.remove(queued);
            }
            Double attained = pendingAttained.remove(p.jobId());
            // The cluster refuses over-allocation, so a policy that over-commits fails loudly.
            allocator.allocate(job, p.nodes());
            RunningJob r = new RunningJob(job, p.nodes(), now, attained == null ? 0 : attained,
                    !notPreemptible.contains(p.jobId()));
            running.put(job.id(), r);
            out.add(r);
        }
        return out;
    }

    public int pendingCount() {
        return pending.size();
    }

    public int runningCount() {
        return running.size();
    }

    /** Pending jobs in arrival order, as the policy sees them. */
    public Collection<JobRequest> pending() {
        return java.util.Collections.unmodifiableCollection(pending.values());
    }

    public JobRequest pendingJob(String jobId) {
        return pending.get(jobId);
    }

    /** Running jobs in start order. */
    public Collection<RunningJob> running() {
        return java.util.Collections.unmodifiableCollection(running.values());
    }

    public RunningJob runningJob(String jobId) {
        return running.get(jobId);
    }

    /** Rounds that asked the policy. */
    public long rounds() {
        return rounds;
    }

    public ClusterState cluster() {
        return cluster;
    }
}
