package io.gantry.scheduling.sim;

import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.engine.VirtualClock;
import io.gantry.scheduling.fairness.FairShareTracker;
import io.gantry.scheduling.fairness.TenantServiceMeter;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.RunningJob;
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
 * One replay: the event queue and what the simulator measures around the {@link SchedulingEngine}, which holds
 * the queue, the running jobs and the rules of a round.
 */
final class Replay {
    private final List<NodeSpec> nodes;
    private final DurationPredictor predictor;
    private final OomModel oom;
    private final double preemptionCostS;
    private final AdaptiveJobs adaptive;
    private final Simulator.RoundObserver observer;
    private final List<JobRequest> jobs;
    private final Simulator.ProgressListener listener;
    private final AllocationMeter meter;
    private final SchedulingEngine engine;
    private final ElasticPolicy.JobModel elastic;
    private final InPlaceResizing resizing;
    private double nextRetune = Double.NaN;
    private final VirtualClock clock;
    private final Map<String, JobRun> runs = new HashMap<>();
    private final Map<String, JobRun> running = new LinkedHashMap<>();
    private final PriorityQueue<JobRun.Completion> completions = new PriorityQueue<>(
            Comparator.comparingDouble(JobRun.Completion::time).thenComparingLong(JobRun.Completion::seq));
    private final List<JobOutcome> outcomes;
    private final DoubleSeries allocTimes = new DoubleSeries();
    private final DoubleSeries allocRatios = new DoubleSeries();
    private final TenantServiceMeter service;
    private final FairShareTracker fair;
    private final Map<String, Set<JobRun>> pendingByTenant = new HashMap<>();
    private final int reportEvery;
    private final double start;
    private long seq;
    private int oomKills;
    private int next;

    Replay(Simulator sim, List<JobRequest> jobs, Simulator.ProgressListener listener) {
        this.nodes = sim.nodes;
        this.predictor = sim.predictor;
        this.oom = sim.oom;
        this.preemptionCostS = sim.preemptionCostS;
        this.adaptive = sim.adaptive;
        this.observer = sim.observer;
        ClusterState cluster = new ClusterState(nodes);
        this.meter = new AllocationMeter(cluster);
        this.engine = new SchedulingEngine(sim.policy, cluster, meter, true);
        this.elastic = sim.policy instanceof ElasticPolicy e ? e.jobModel() : null;
        this.resizing = adaptive == null ? null : new InPlaceResizing(engine, adaptive);
        this.fair = sim.fairShare == null ? null : new FairShareTracker(sim.fairShare);
        this.jobs = jobs;
        this.listener = listener;
        this.outcomes = new ArrayList<>(jobs.size());
        this.service = new TenantServiceMeter(nodes.stream().mapToDouble(n -> n.capacity().gpus()).sum());
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
        if (!Double.isNaN(nextRetune) && !running.isEmpty()) {
            t = Math.min(t, nextRetune);
        }
        if (t == Double.POSITIVE_INFINITY) {
            return false;
        }
        meter.advance(t - clock.now());
        service.advance(t - clock.now());
        clock.advanceTo(t);
        completeDue();
        admit(arrivals());
        retuneIfDue();
        SchedulingEngine.Round round = engine.round(clock.now());
        if (round.ran()) {
            if (observer != null) {
                observer.round(clock.now(), round.started(), round.stopped());
            }
            round.stopped().forEach(this::preempted);
            for (RunningJob s : round.started()) {
                String grown = resizing == null ? null : resizing.grownJob(s.job().id());
                if (grown != null) {
                    grown(runs.get(grown), s);
                } else {
                    started(s);
                }
            }
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
            JobRun.Completion c = completions.poll();
            if (isStale(c, running)) {
                continue;
            }
            JobRun r = c.run();
            running.remove(r.job.id());
            engine.release(r.job.id());
            if (adapts(r)) {
                resizing.drop(r.job.id());
            }
            if (timing(r) != null) {
                stintTrained(r, r.progress, timing(r).total(r.job));
            }
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
                    r.job.trueDurationS(), r.preemptions, r.restarts, r.restartS));
            if (predictor != null) {
                predictor.observe(r.job, r.job.trueDurationS());
            }
            if (listener != null && outcomes.size() % reportEvery == 0) {
                listener.progress(outcomes.size(), jobs.size());
            }
        }
    }

    private List<JobRun> arrivals() {
        List<JobRun> arrived = new ArrayList<>();
        while (next < jobs.size() && jobs.get(next).submitTime() <= clock.now()) {
            JobRequest j = jobs.get(next++);
            if (predictor != null) {
                j = withPrediction(j, predictor.predict(j));
            }
            JobRun r = new JobRun(j);
            runs.put(j.id(), r);
            service.arrived(j.user(), j.gpus());
            arrived.add(r);
        }
        return arrived;
    }

    /**
     * Queues the jobs that arrived now, at their tenants' fair-share priority if there is fair share; where adaptive
     * jobs use idle GPUs, as {@link InPlaceResizing#sizeArrivals} sizes them, with jobs holding idle GPUs making room
     * for them at once.
     */
    private void admit(List<JobRun> arrived) {
        if (fair != null) {
            boolean newTenant = false;
            for (JobRun r : arrived) {
                newTenant |= fair.register(r.job.user());
            }
            if (newTenant || fair.refreshDue(clock.now())) {
                for (String tenant : fair.refresh(clock.now())) {
                    for (JobRun r : pendingByTenant.getOrDefault(tenant, Set.of())) {
                        r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                        engine.reprice(r.job);
                    }
                }
            }
            for (JobRun r : arrived) {
                r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
                pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
            }
        }
        boolean resized = resizing != null && adaptive.usesIdleGpus() && !arrived.isEmpty();
        if (resized) {
            resizing.sizeArrivals(arrived, service);
        }
        arrived.forEach(r -> engine.submit(r.job, true));
        if (resized) {
            resizing.makeRoom(List.copyOf(running.values()), adaptive.model().restartDelayS() + preemptionCostS,
                    this::progressNow, this::restartOn);
        }
    }

    /** A victim keeps its progress and waits again; with a preemption cost it needs that much more run time. */
    private void preempted(RunningJob stopped) {
        double now = clock.now();
        JobRun r = running.remove(stopped.job().id());
        double ran = now - r.current.startedAt();
        if (timing(r) != null) {
            double before = r.progress;
            r.progress = progressNow(r);
            stintTrained(r, before, r.progress);
        }
        r.remainingS = Math.max(0, r.remainingS - ran) + preemptionCostS;
        r.attainedGpuS = r.current.attainedGpuSecondsAt(now);
        r.preemptions++;
        r.restarts++;
        // A timed job's next start charges the restart delay and the cost (started()), a fixed one just the cost.
        r.restartS += (timing(r) != null ? timing(r).restartDelayS() : 0) + preemptionCostS;
        r.stint++;
        service.preempted(r.job.user(), r.job.gpus());
        if (fair != null) {
            fair.stopped(r.job.user(), r.job.gpus(), r.current.startedAt(), now);
            r.job = withPriority(r.job, r.tracePriority + fair.priority(r.job.user()));
            pendingByTenant.computeIfAbsent(r.job.user(), k -> new LinkedHashSet<>()).add(r);
        }
        if (adapts(r)) {
            // It restarts anyway, so it waits for the GPU count it wants now, whatever the change costs.
            resizing.drop(r.job.id());
            JobRequest wanted = adaptive.resized(r.job, adaptive.wantedGpus(r.job, r.progress, (int) Math.round(r.job.gpus()), 0));
            service.resized(r.job.user(), r.job.gpus(), wanted.gpus(), false);
            r.job = wanted;
        }
        r.current = null;
        engine.requeue(r.job, r.attainedGpuS, true);
    }

    private void started(RunningJob started) {
        double now = clock.now();
        JobRun r = runs.get(started.job().id());
        ElasticPolicy.JobModel timing = timing(r);
        if (adapts(r)) {
            // Held one task per GPU from now on, so that it can grow or shrink by single GPUs (the same room).
            started = engine.resize(adaptive.inPlace(started.job(), (int) Math.round(started.job().gpus())),
                    InPlaceResizing.perGpu(started), now);
            adaptive.restarting(started.job(), started.nodes().size(), r.progress);
        }
        if (timing != null) {
            // Sized by the policy or the tuner: each start is a (re)start on a new allocation, timed by the job model.
            r.job = started.job();
            r.remainingS = timing.restartDelayS() + (r.restarts > 0 ? preemptionCostS : 0)
                    + timing.secondsToFinish(r.job, started.nodes(), r.progress);
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
        completions.add(new JobRun.Completion(now + (killed ? killAfter : r.remainingS), seq++, r, r.stint, killed));
    }

    /** The job model that times {@code r}'s run (its policy's or the tuner's); null for a fixed run time. */
    private ElasticPolicy.JobModel timing(JobRun r) {
        return elastic != null ? elastic : adapts(r) ? adaptive.model() : null;
    }

    private boolean adapts(JobRun r) {
        return adaptive != null && adaptive.adapts(r.job);
    }

    /** A stint of timed {@code r} ended, having trained from {@code from} to {@code to}: its trainer records it. */
    private void stintTrained(JobRun r, double from, double to) {
        if (adapts(r)) {
            adaptive.trained(r.job, r.current.nodes(), from, to);
        } else {
            timing(r).trained(r.job, r.current.nodes(), from, to);
        }
    }

    /** Training progress of running {@code r} now: what its stint trained after the stint's restart time. */
    private double progressNow(JobRun r) {
        ElasticPolicy.JobModel timing = timing(r);
        double ran = clock.now() - r.current.startedAt();
        double trained = Math.max(0, ran - timing.restartDelayS() - (r.restarts > 0 ? preemptionCostS : 0));
        return timing.progressAfter(r.job, r.current.nodes(), r.progress, trained);
    }

    /** Every re-tune interval from the replay's start, the running adaptive jobs shrink or ask to grow. */
    private void retuneIfDue() {
        if (adaptive == null) {
            return;
        }
        double now = clock.now();
        if (!Double.isNaN(nextRetune) && now >= nextRetune) {
            resizing.retune(now, List.copyOf(running.values()), adaptive.model().restartDelayS() + preemptionCostS,
                    this::progressNow, this::restartOn);
        }
        double interval = adaptive.retuneIntervalS();
        nextRetune = start + interval * (Math.floor((now - start) / interval) + 1);
    }

    /** The policy placed {@code r}'s grow request: {@code r} restarts on its GPUs and the request's. */
    private void grown(JobRun r, RunningJob request) {
        engine.release(request.job().id());
        if (r.current == null) {
            return; // the same round stopped the job itself; it waits again at the size it wants
        }
        List<String> nodes = new ArrayList<>(r.current.nodes());
        nodes.addAll(InPlaceResizing.perGpu(request));
        restartOn(r, adaptive.inPlace(r.job, nodes.size()), nodes);
    }

    /** A checkpoint-restart of running {@code r} as {@code job} on {@code nodes}, without leaving its room. */
    private void restartOn(JobRun r, JobRequest job, List<String> nodes) {
        double now = clock.now();
        double before = r.progress;
        r.progress = progressNow(r);
        stintTrained(r, before, r.progress);
        service.resized(job.user(), r.job.gpus(), job.gpus(), true);
        if (fair != null) {
            fair.stopped(r.job.user(), r.job.gpus(), r.current.startedAt(), now);
            fair.started(job.user(), job.gpus(), now);
        }
        ElasticPolicy.JobModel timing = adaptive.model();
        r.restarts++;
        r.restartS += timing.restartDelayS() + preemptionCostS;
        r.stint++;
        r.job = job;
        adaptive.restarting(job, nodes.size(), r.progress);
        r.current = engine.resize(job, nodes, now);
        r.remainingS = timing.restartDelayS() + preemptionCostS + timing.secondsToFinish(job, nodes, r.progress);
        completions.add(new JobRun.Completion(now + r.remainingS, seq++, r, r.stint, false));
    }

    /** An OOM-killed run loses its progress; the job waits again as {@link OomModel#retryAs}, from the start. */
    private void resubmitAfterOom(JobRun r, double now) {
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

    private static JobRequest withPriority(JobRequest j, double priority) {
        return new JobRequest(j.id(), j.user(), j.tasks(), j.perTask(), j.submitTime(), priority,
                j.predictedDurationS(), j.trueDurationS());
    }

    private static boolean isStale(JobRun.Completion c, Map<String, JobRun> running) {
        JobRun r = running.get(c.run().job.id());
        return r != c.run() || r.stint != c.stint();
    }

    private static JobRequest withPrediction(JobRequest j, double predicted) {
        return new JobRequest(j.id(), j.user(), j.tasks(), j.perTask(), j.submitTime(), j.priority(), predicted,
                j.trueDurationS());
    }
}
