package io.gantry.scheduling.sim;

import io.gantry.scheduling.fairness.FairShareTracker;
import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.engine.VirtualClock;
import io.gantry.scheduling.fairness.TenantServiceMeter;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.predict.DurationPredictor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
 * <p>The queue, the running jobs and each round's rules (which jobs a round offers, stopping victims, gang checks,
 * wake-ups) are the {@link SchedulingEngine}'s, the same engine the live sac-scheduler drives; the simulator adds only
 * virtual time ({@link VirtualClock}), completions, OOM kills and the meters.
 *
 * <p>Fair share (optional, {@link FairShareTracker}): each pending job's {@link JobRequest#priority()} becomes its
 * trace priority plus its tenant's dynamic fair-share priority, recomputed every refresh interval; the pending
 * jobs of tenants whose priority changed are re-keyed in the sorted queue. Without it the replay is unchanged.
 * Either way each tenant's normalised service is measured ({@link TenantServiceMeter}) for Jain's index.
 */
public final class Simulator {

    /** Told what every round did, for tests that compare the simulator with the live scheduler. */
    @FunctionalInterface
    public interface RoundObserver {
        void round(double now, List<RunningJob> started, List<RunningJob> stopped);
    }

    /** Told about progress now and then; {@code done} of {@code total} jobs have finished. */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(int done, int total);
    }

    private final List<NodeSpec> nodes;
    private final SchedulingPolicy policy;
    private final DurationPredictor predictor;
    private final FairShareTracker.Settings fairShare;
    private final OomModel oom;
    private final double preemptionCostS;
    private RoundObserver observer;

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

    /** Tells {@code observer} what each round started and stopped (null for no one); returns this simulator. */
    public Simulator observedBy(RoundObserver observer) {
        this.observer = observer;
        return this;
    }

    private static final class Run {
        /** The job as queued: with fair share its priority is replaced as its tenant's priority changes. */
        JobRequest job;
        final double tracePriority;
        final double submit;
        double remainingS;
        /** Training progress for an {@link ElasticPolicy}'s jobs, whose run time depends on their allocation. */
        double progress;
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
        Replay replay = new Replay(jobs, listener);
        while (replay.step()) {
            // one event time per step
        }
        return replay.result(wallStart);
    }

    /**
     * One replay: the event queue and what the simulator measures around the {@link SchedulingEngine}, which holds
     * the queue, the running jobs and the rules of a round.
     */
    private final class Replay {
        private final List<JobRequest> jobs;
        private final ProgressListener listener;
        private final ClusterState cluster = new ClusterState(nodes);
        private final AllocationMeter meter = new AllocationMeter(cluster);
        private final SchedulingEngine engine = new SchedulingEngine(policy, cluster, meter, true);
        private final ElasticPolicy.JobModel elastic = policy instanceof ElasticPolicy e ? e.jobModel() : null;
        private final VirtualClock clock;
        private final Map<String, Run> runs = new HashMap<>();
        private final Map<String, Run> running = new LinkedHashMap<>();
        private final PriorityQueue<Completion> completions = new PriorityQueue<>(
                Comparator.comparingDouble(Completion::time).thenComparingLong(Completion::seq));
        private final List<JobOutcome> outcomes;
        private final DoubleSeries allocTimes = new DoubleSeries();
        private final DoubleSeries allocRatios = new DoubleSeries();
        private final TenantServiceMeter service;
        private final FairShareTracker fair = fairShare == null ? null : new FairShareTracker(fairShare);
        private final Map<String, Set<Run>> pendingByTenant = new HashMap<>();
        private final int reportEvery;
        private final double start;
        private long seq;
        private int oomKills;
        private int next;

        Replay(List<JobRequest> jobs, ProgressListener listener) {
            this.jobs = jobs;
            this.listener = listener;
            this.outcomes = new ArrayList<>(jobs.size());
            double clusterGpus = 0;
            for (NodeSpec n : nodes) {
                clusterGpus += n.capacity().gpus();
            }
            this.service = new TenantServiceMeter(clusterGpus);
            this.start = jobs.isEmpty() ? 0 : jobs.get(0).submitTime();
            this.clock = new VirtualClock(start);
            this.reportEvery = Math.max(1, jobs.size() / 200);
        }

        /** Moves to the next event time, applies its events and runs a round; false when no event is left. */
        boolean step() {
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
            if (!Double.isNaN(engine.wakeAt())) {
                t = Math.min(t, engine.wakeAt());
            }
            if (t == Double.POSITIVE_INFINITY) {
                return false;
            }
            meter.advance(t - clock.now());
            service.advance(t - clock.now());
            clock.advanceTo(t);
            completeDue();
            admit(arrivals());
            SchedulingEngine.Round round = engine.round(clock.now());
            if (round.ran()) {
                if (observer != null) {
                    observer.round(clock.now(), round.started(), round.stopped());
                }
                round.stopped().forEach(this::preempted);
                round.started().forEach(this::started);
                double ratio = meter.gpuRatio();
                if (allocRatios.size() == 0 || allocRatios.last() != ratio) {
                    allocTimes.add(clock.now());
                    allocRatios.add(ratio);
                }
            }
            return true;
        }

        private void completeDue() {
            double now = clock.now();
            while (!completions.isEmpty() && completions.peek().time() <= now) {
                Completion c = completions.poll();
                if (isStale(c, running)) {
                    continue;
                }
                Run r = c.run();
                running.remove(r.job.id());
                engine.release(r.job.id());
                service.finished(r.job.user(), r.job.gpus());
                if (fair != null) {
                    fair.stopped(r.job.user(), r.job.gpus(), r.current.startedAt(), now);
                }
                if (c.oomKill()) {
                    oomKills++;
                    resubmitAfterOom(r, now);
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
        }

        private List<Run> arrivals() {
            List<Run> arrived = new ArrayList<>();
            while (next < jobs.size() && jobs.get(next).submitTime() <= clock.now()) {
                JobRequest j = jobs.get(next++);
                if (predictor != null) {
                    j = withPrediction(j, predictor.predict(j));
                }
                Run r = new Run(j);
                runs.put(j.id(), r);
                service.arrived(j.user(), j.gpus());
                arrived.add(r);
            }
            return arrived;
        }

        /** Queues the jobs that arrived now, at their tenants' fair-share priority if there is fair share. */
        private void admit(List<Run> arrived) {
            if (fair != null) {
                boolean newTenant = false;
                for (Run r : arrived) {
                    newTenant |= fair.register(r.job.user());
                }
                if (newTenant || fair.refreshDue(clock.now())) {
                    for (String tenant : fair.refresh(clock.now())) {
                        for (Run r : pendingByTenant.getOrDefault(tenant, Set.of())) {
                            r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                            engine.reprice(r.job);
                        }
                    }
                }
                for (Run r : arrived) {
                    r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                    pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
                }
            }
            for (Run r : arrived) {
                engine.submit(r.job, true);
            }
        }

        /** A victim keeps its progress and waits again; with a preemption cost it needs that much more run time. */
        private void preempted(RunningJob stopped) {
            double now = clock.now();
            Run r = running.remove(stopped.job().id());
            double ran = now - r.current.startedAt();
            if (elastic != null) {
                double trained = Math.max(0, ran - elastic.restartDelayS() - (r.preemptions > 0 ? preemptionCostS : 0));
                r.progress = elastic.progressAfter(r.job, r.current.nodes(), r.progress, trained);
            }
            r.remainingS = Math.max(0, r.remainingS - ran) + preemptionCostS;
            r.attainedGpuS = r.current.attainedGpuSecondsAt(now);
            r.preemptions++;
            r.stint++;
            service.preempted(r.job.user(), r.job.gpus());
            if (fair != null) {
                fair.stopped(r.job.user(), r.job.gpus(), r.current.startedAt(), now);
                r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
            }
            r.current = null;
            engine.requeue(r.job, r.attainedGpuS, true);
        }

        private void started(RunningJob started) {
            double now = clock.now();
            Run r = runs.get(started.job().id());
            if (elastic != null) {
                // Sized by the policy: each start is a (re)start on a new allocation, timed by the job model.
                r.job = started.job();
                r.remainingS = elastic.restartDelayS() + (r.preemptions > 0 ? preemptionCostS : 0)
                        + elastic.secondsToFinish(r.job, started.nodes(), r.progress);
            }
            service.started(r.job.user(), r.job.gpus());
            if (fair != null) {
                fair.started(r.job.user(), r.job.gpus(), now);
                pendingByTenant.get(r.job.user()).remove(r);
            }
            if (Double.isNaN(r.firstStart)) {
                r.firstStart = now;
            }
            r.current = started;
            running.put(r.job.id(), r);
            double killAfter = oom == null || r.retried ? Double.NaN : oom.killAfterS(r.job);
            boolean killed = killAfter >= 0 && killAfter < r.remainingS;
            completions.add(new Completion(now + (killed ? killAfter : r.remainingS), seq++, r, r.stint, killed));
        }

        /** An OOM-killed run loses its progress; the job waits again as {@link OomModel#retryAs}, from the start. */
        private void resubmitAfterOom(Run r, double now) {
            JobRequest retry = oom.retryAs(r.job);
            double priority = fair != null ? r.tracePriority + fair.priority(retry.user()) : retry.priority();
            r.job = new JobRequest(retry.id(), retry.user(), retry.tasks(), retry.perTask(), r.submit, priority,
                    r.job.predictedDurationS(), retry.trueDurationS());
            r.remainingS = retry.trueDurationS();
            r.attainedGpuS = r.current.attainedGpuSecondsAt(now);
            r.retried = true;
            r.stint++;
            r.current = null;
            service.arrived(r.job.user(), r.job.gpus());
            if (fair != null) {
                pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
            }
            engine.requeue(r.job, r.attainedGpuS, true);
        }

        SimulationResult result(long wallStart) {
            List<String> unfinished = new ArrayList<>();
            engine.pending().forEach(j -> unfinished.add(j.id()));
            unfinished.addAll(running.keySet());
            double span = clock.now() - start;
            if (listener != null) {
                listener.progress(outcomes.size(), jobs.size());
            }
            return new SimulationResult(outcomes, unfinished, allocTimes.toArray(), allocRatios.toArray(),
                    meter.meanGpuRatio(span), meter.meanCpuRatio(span), meter.meanMemRatio(span), meter.meanNodeCv(),
                    meter.maxGpuRatioSeen(), engine.rounds(), (System.nanoTime() - wallStart) / 1e9, service.totals(),
                    oomKills);
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
}
