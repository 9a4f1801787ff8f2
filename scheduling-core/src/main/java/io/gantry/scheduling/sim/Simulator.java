package io.gantry.scheduling.sim;

import io.gantry.scheduling.fairness.FairShareTracker;
import io.gantry.scheduling.fairness.TenantServiceMeter;
import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.OrderedQueueScheduling;
import io.gantry.scheduling.framework.SortedPendingQueue;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.predict.DurationPredictor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Discrete-event replay of a trace through a {@link SchedulingPolicy} in virtual time. Events are job
 * arrivals (the trace, in submit order), completions (a priority queue) and wake-ups a policy asks
 * for. All events at one instant are applied first, then one scheduling round runs. A job runs for
 * exactly its true duration once it holds its whole gang; a preempted job keeps its progress and, with
 * {@link #withPreemptionCost}, pays a fixed restart time each time it resumes (free by default).
 *
 * <p>Cost: a policy with a fixed queue order ({@link OrderedQueueScheduling}) gets the pending jobs
 * kept sorted between rounds (O(log queue) per arrival and start) and walks them from the front only
 * until nothing fits; any other policy is handed the whole pending queue, O(queue) per round. Either
 * way the engine skips work it can prove useless: when nothing was released
 * since the last round and the policy never lets a non-fitting job block others
 * ({@link SchedulingPolicy#skipsJobsThatDoNotFit()}), every older pending job already failed to
 * fit in more free space than there is now, so only the newly arrived jobs are offered.
 *
 * <p>Fair share (optional, {@link FairShareTracker}): each pending job's {@link JobRequest#priority()} becomes its
 * trace priority plus its tenant's dynamic fair-share priority, recomputed every refresh interval; the pending
 * jobs of tenants whose priority changed are re-keyed in the sorted queue. Without it the replay is unchanged.
 * Either way each tenant's normalised service is measured ({@link TenantServiceMeter}) for Jain's index.
 */
public final class Simulator {

    /** Told about progress now and then; {@code done} of {@code total} jobs have finished. */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(int done, int total);
    }

    private static final double WAKE_EPSILON_S = 1e-6;

    private final List<NodeSpec> nodes;
    private final SchedulingPolicy policy;
    private final DurationPredictor predictor;
    private final FairShareTracker.Settings fairShare;
    private final OomModel oom;
    private final double preemptionCostS;

    /** @param predictor fills {@link JobRequest#predictedDurationS()} at submission; null leaves it as given */
    public Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor) {
        this(nodes, policy, predictor, null);
    }

    /** @param fairShare fair-share priorities for the queue order; null for none (the trace's priorities alone) */
    public Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor,
                     FairShareTracker.Settings fairShare) {
        this(nodes, policy, predictor, fairShare, null);
    }

    /** @param oom which runs are OOM-killed and what they are retried as; null for none (every job runs to the end) */
    public Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor,
                     FairShareTracker.Settings fairShare, OomModel oom) {
        this(nodes, policy, predictor, fairShare, oom, 0);
    }

    private Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor,
                      FairShareTracker.Settings fairShare, OomModel oom, double preemptionCostS) {
        this.nodes = List.copyOf(nodes);
        this.policy = policy;
        this.predictor = predictor;
        this.fairShare = fairShare;
        this.oom = oom;
        this.preemptionCostS = preemptionCostS;
    }

    /**
     * The same replay where a preempted job needs {@code seconds} more run time each time it resumes (reloading its
     * checkpoint, warming up again: Pollux charges 30 s per re-allocation). 0 keeps preemption free.
     */
    public Simulator withPreemptionCost(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("preemption cost must be a finite number of seconds >= 0, got " + seconds);
        }
        return new Simulator(nodes, policy, predictor, fairShare, oom, seconds);
    }

    private static final class Run {
        /** The job as queued: with fair share its priority is replaced as its tenant's priority changes. */
        JobRequest job;
        final double tracePriority;
        final double submit;
        double remainingS;
        double attainedGpuS;
        double firstStart = Double.NaN;
        int preemptions;
        int stint;
        RunningJob current;
        boolean retried;

        Run(JobRequest job) {
            this.job = job;
            this.tracePriority = job.priority();
            this.submit = job.submitTime();
            this.remainingS = job.trueDurationS();
        }
    }

    /** @param oomKill the run ends because it ran out of memory, not because its work is done */
    private record Completion(double time, long seq, Run run, int stint, boolean oomKill) {
    }

    public SimulationResult run(List<JobRequest> trace, ProgressListener listener) {
        long wallStart = System.nanoTime();
        List<JobRequest> jobs = new ArrayList<>(trace);
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime));
        for (JobRequest j : jobs) {
            if (!(j.trueDurationS() >= 0)) {
                throw new IllegalArgumentException("job " + j.id() + " has no valid duration: " + j.trueDurationS());
            }
        }
        ClusterState cluster = new ClusterState(nodes);
        AllocationMeter meter = new AllocationMeter(cluster);
        Map<String, Run> pending = new LinkedHashMap<>();
        // With a fixed queue order the pending jobs are also kept sorted, so a round walks them from the
        // front instead of handing the whole queue to the policy to sort again.
        OrderedQueueScheduling ordered = policy instanceof OrderedQueueScheduling o && o.fixedQueueOrder() != null
                ? o : null;
        SortedPendingQueue sorted = ordered == null ? null : new SortedPendingQueue(ordered.fixedQueueOrder());
        Map<String, Run> running = new LinkedHashMap<>();
        Map<String, Double> pendingAttained = new HashMap<>();
        PriorityQueue<Completion> completions = new PriorityQueue<>(
                Comparator.comparingDouble(Completion::time).thenComparingLong(Completion::seq));
        long seq = 0;
        List<JobOutcome> outcomes = new ArrayList<>(jobs.size());
        DoubleSeries allocTimes = new DoubleSeries();
        DoubleSeries allocRatios = new DoubleSeries();
        double clusterGpus = 0;
        for (NodeSpec n : nodes) {
            clusterGpus += n.capacity().gpus();
        }
        TenantServiceMeter service = new TenantServiceMeter(clusterGpus);
        FairShareTracker fair = fairShare == null ? null : new FairShareTracker(fairShare);
        Map<String, Set<Run>> pendingByTenant = new HashMap<>();

        long rounds = 0;
        int oomKills = 0;
        int next = 0;
        double now = jobs.isEmpty() ? 0 : jobs.get(0).submitTime();
        double start = now;
        double wakeAt = Double.NaN;
        int reportEvery = Math.max(1, jobs.size() / 200);

        while (true) {
            while (!completions.isEmpty() && isStale(completions.peek(), running)) {
                completions.poll();
            }
            double t = Double.POSITIVE_INFINITY;
            if (next < jobs.size()) {
                t = jobs.get(next).submitTime();
            }
            if (!completions.isEmpty()) {
                t = Math.min(t, completions.peek().time());
            }
            if (!Double.isNaN(wakeAt)) {
                t = Math.min(t, wakeAt);
            }
            if (t == Double.POSITIVE_INFINITY) {
                break;
            }
            meter.advance(t - now);
            service.advance(t - now);
            now = t;

            boolean released = false;
            while (!completions.isEmpty() && completions.peek().time() <= now) {
                Completion c = completions.poll();
                if (isStale(c, running)) {
                    continue;
                }
                Run r = c.run();
                running.remove(r.job.id());
                meter.release(r.job, r.current.nodes());
                service.finished(r.job.user(), r.job.gpus());
                if (fair != null) {
                    fair.stopped(r.job.user(), r.job.gpus(), r.current.startedAt(), now);
                }
                released = true;
                if (c.oomKill()) {
                    oomKills++;
                    resubmitAfterOom(r, now, fair, service, sorted, pending, pendingByTenant, pendingAttained);
                    continue;
                }
                outcomes.add(new JobOutcome(r.job.id(), r.job.user(), r.job.gpus(), r.submit, r.firstStart, now,
                        r.job.trueDurationS(), r.preemptions));
                if (predictor != null) {
                    predictor.observe(r.job, r.job.trueDurationS());
                }
                if (listener != null && outcomes.size() % reportEvery == 0) {
                    listener.progress(outcomes.size(), jobs.size());
                }
            }
            List<JobRequest> arrived = new ArrayList<>();
            List<Run> arrivedRuns = new ArrayList<>();
            while (next < jobs.size() && jobs.get(next).submitTime() <= now) {
                JobRequest j = jobs.get(next++);
                if (predictor != null) {
                    j = withPrediction(j, predictor.predict(j));
                }
                Run r = new Run(j);
                pending.put(j.id(), r);
                service.arrived(j.user(), j.gpus());
                arrivedRuns.add(r);
            }
            if (fair != null) {
                boolean newTenant = false;
                for (Run r : arrivedRuns) {
                    newTenant |= fair.register(r.job.user());
                }
                if (newTenant || fair.refreshDue(now)) {
                    for (String tenant : fair.refresh(now)) {
                        for (Run r : pendingByTenant.getOrDefault(tenant, Set.of())) {
                            reprice(r, fair, sorted);
                        }
                    }
                }
                for (Run r : arrivedRuns) {
                    r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                    pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
                }
            }
            for (Run r : arrivedRuns) {
                if (sorted != null) {
                    sorted.add(r.job);
                }
                arrived.add(r.job);
            }
            boolean woken = !Double.isNaN(wakeAt) && wakeAt <= now;
            if (woken) {
                wakeAt = Double.NaN;
            }
            if (pending.isEmpty()) {
                continue;
            }
            boolean onlyArrivals = !released && !woken && policy.skipsJobsThatDoNotFit();
            if (onlyArrivals && arrived.isEmpty()) {
                continue;
            }
            rounds++;
            Decision d;
            if (sorted != null) {
                Iterator<JobRequest> inOrder;
                Resources smallest;
                if (onlyArrivals) {
                    arrived.sort(sorted.order());
                    inOrder = arrived.iterator();
                    smallest = GangPlacer.smallestRequest(arrived);
                } else {
                    inOrder = sorted.inOrder();
                    smallest = sorted.smallestRequest();
                }
                d = Decision.placeOnly(ordered.scheduleInOrder(now, cluster, inOrder, smallest));
            } else {
                List<JobRequest> offered = arrived;
                if (!onlyArrivals) {
                    offered = new ArrayList<>(pending.size());
                    for (Run r : pending.values()) {
                        offered.add(r.job);
                    }
                }
                List<RunningJob> runningNow = new ArrayList<>(running.size());
                for (Run r : running.values()) {
                    runningNow.add(r.current);
                }
                d = policy.decide(new SchedulingContext(now, offered, cluster, runningNow, pendingAttained));
            }

            for (String id : d.preemptions()) {
                Run r = running.remove(id);
                if (r == null) {
                    throw new IllegalStateException(policy.name() + " preempted " + id + ", which is not running");
                }
                double ran = now - r.current.startedAt();
                r.remainingS = Math.max(0, r.remainingS - ran) + preemptionCostS;
                r.attainedGpuS = r.current.attainedGpuSecondsAt(now);
                r.preemptions++;
                r.stint++;
                meter.release(r.job, r.current.nodes());
                service.preempted(r.job.user(), r.job.gpus());
                if (fair != null) {
                    fair.stopped(r.job.user(), r.job.gpus(), r.current.startedAt(), now);
                    r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                    pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
                }
                r.current = null;
                pending.put(id, r);
                if (sorted != null) {
                    sorted.add(r.job);
                }
                pendingAttained.put(id, r.attainedGpuS);
            }
            for (Placement p : d.placements()) {
                Run r = pending.remove(p.jobId());
                if (r == null) {
                    throw new IllegalStateException(policy.name() + " placed " + p.jobId() + ", which is not pending");
                }
                if (p.nodes().size() != r.job.tasks()) {
                    throw new IllegalStateException(policy.name() + " placed " + p.nodes().size() + " of "
                            + r.job.tasks() + " tasks of gang " + p.jobId());
                }
                if (sorted != null) {
                    sorted.remove(r.job);
                }
                // ClusterState refuses over-allocation, so a policy that over-commits fails the replay loudly.
                meter.allocate(r.job, p.nodes());
                service.started(r.job.user(), r.job.gpus());
                if (fair != null) {
                    fair.started(r.job.user(), r.job.gpus(), now);
                    pendingByTenant.get(r.job.user()).remove(r);
                }
                pendingAttained.remove(p.jobId());
                if (Double.isNaN(r.firstStart)) {
                    r.firstStart = now;
                }
                r.current = new RunningJob(r.job, p.nodes(), now, r.attainedGpuS);
                running.put(r.job.id(), r);
                double killAfter = oom == null || r.retried ? Double.NaN : oom.killAfterS(r.job);
                boolean killed = killAfter >= 0 && killAfter < r.remainingS;
                completions.add(new Completion(now + (killed ? killAfter : r.remainingS), seq++, r, r.stint, killed));
            }
            double ratio = meter.gpuRatio();
            if (allocRatios.size() == 0 || allocRatios.last() != ratio) {
                allocTimes.add(now);
                allocRatios.add(ratio);
            }
            if (!Double.isNaN(d.wakeAt()) && d.wakeAt() > now + WAKE_EPSILON_S) {
                wakeAt = d.wakeAt();
            }
        }
        List<String> unfinished = new ArrayList<>(pending.keySet());
        unfinished.addAll(running.keySet());
        double span = now - start;
        if (listener != null) {
            listener.progress(outcomes.size(), jobs.size());
        }
        return new SimulationResult(outcomes, unfinished, allocTimes.toArray(), allocRatios.toArray(),
                meter.meanGpuRatio(span), meter.meanCpuRatio(span), meter.meanMemRatio(span), meter.meanNodeCv(),
                meter.maxGpuRatioSeen(), rounds, (System.nanoTime() - wallStart) / 1e9, service.totals(), oomKills);
    }

    /** An OOM-killed run loses its progress; the job waits again as {@link OomModel#retryAs}, from the start. */
    private void resubmitAfterOom(Run r, double now, FairShareTracker fair, TenantServiceMeter service,
                                  SortedPendingQueue sorted, Map<String, Run> pending, Map<String, Set<Run>> pendingByTenant,
                                  Map<String, Double> pendingAttained) {
        JobRequest retry = oom.retryAs(r.job);
        double priority = fair != null ? r.tracePriority + fair.priority(retry.user()) : retry.priority();
        r.job = new JobRequest(retry.id(), retry.user(), retry.tasks(), retry.perTask(), r.submit, priority,
                r.job.predictedDurationS(), retry.trueDurationS());
        r.remainingS = retry.trueDurationS();
        r.attainedGpuS = r.current.attainedGpuSecondsAt(now);
        r.retried = true;
        r.stint++;
        r.current = null;
        pending.put(r.job.id(), r);
        service.arrived(r.job.user(), r.job.gpus());
        if (sorted != null) {
            sorted.add(r.job);
        }
        if (fair != null) {
            pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
        }
        pendingAttained.put(r.job.id(), r.attainedGpuS);
    }

    /** Gives a pending job its tenant's current fair-share priority, moving it in the sorted queue if there is one. */
    private static void reprice(Run r, FairShareTracker fair, SortedPendingQueue sorted) {
        if (sorted != null) {
            sorted.remove(r.job);
        }
        r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
        if (sorted != null) {
            sorted.add(r.job);
        }
    }

    private static JobRequest withPriority(JobRequest j, double priority) {
        return new JobRequest(j.id(), j.user(), j.tasks(), j.perTask(), j.submitTime(), priority,
                j.predictedDurationS(), j.trueDurationS());
    }

    private static boolean isStale(Completion c, Map<String, Run> running) {
        Run r = running.get(c.run().job.id());
        return r != c.run() || r.stint != c.stint();
    }

    private static JobRequest withPrediction(JobRequest j, double predicted) {
        return new JobRequest(j.id(), j.user(), j.tasks(), j.perTask(), j.submitTime(), j.priority(), predicted,
                j.trueDurationS());
    }

    /** A growable array of doubles: the allocation time series has one point per change. */
    private static final class DoubleSeries {
        private double[] values = new double[1024];
        private int size;

        void add(double v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int size() {
            return size;
        }

        double last() {
            return values[size - 1];
        }

        double[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
