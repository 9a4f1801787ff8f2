package io.gantry.scheduling.tuning;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.sim.AdaptiveJobs;
import io.gantry.scheduling.sim.SpareGpus;
import io.gantry.scheduling.trace.NodeShape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tuner's adaptive mode in a replay: each job starts as the one-time {@link TrainingTuner} set it, then its batch
 * size (and AdaScale learning-rate scaling, which follows the batch) is re-chosen at every epoch boundary by its
 * {@link RetunePlan}, and its GPU count every {@value #RETUNE_INTERVAL_S} s of simulated time, Pollux's
 * re-allocation interval. The GPU count follows the one-time tuner's rule ({@link ScaleOutRule}) on the training that
 * is left: each GPU up to the count, at most its cap, must do at least the tuner's minimum share (0.7 by default) of
 * one GPU's work, judged on the predicted seconds to finish. A change must pay for its own checkpoint-restart: a
 * grow only if it finishes sooner restart included, a shrink only if it saves GPU-seconds restart included. With
 * idle scaling on, jobs also share the GPUs nobody waits for ({@link IdleScaling}), and a job may take the longer
 * plan of the epochs it was submitted with, if a larger batch that reaches its target only in those epochs finishes
 * sooner on the GPUs it gets ({@link #restarting}). No constant here was chosen on a workload.
 */
public final class AdaptiveRetuner implements AdaptiveJobs {

    /** Pollux's re-allocation interval (its simulator's {@code interval=60}), used for the same cadence here. */
    public static final double RETUNE_INTERVAL_S = 60;

    private final Map<String, RetunePlan> plans;
    private final Map<String, RetunePlan> longer;
    /** Jobs that took their longer plan: for good, as they may have trained at a batch only it allows. */
    private final Set<String> lengthened = new HashSet<>();
    private final double minScalingEfficiency;
    private final NodeShape shape;
    private final AdaptiveTraining training;
    private final boolean idleScaling;
    private final Map<String, TreeSet<Integer>> batchesUsed = new HashMap<>();

    /**
     * @param plans        by job id: the jobs it re-tunes (trace jobs and their {@code --repeat} copies), each with
     *                     the one-time tuner's epochs
     * @param longer       by job id, where it allows more batches: the job's plan for the epochs it was submitted
     *                     with, which idle scaling may switch it to ({@link #restarting})
     * @param shape        the cluster's node type, for the gangs jobs are queued as
     * @param idleScaling  true: jobs also scale into idle GPUs while nobody waits ({@link IdleScaling})
     */
    AdaptiveRetuner(Map<String, RetunePlan> plans, Map<String, RetunePlan> longer, double minScalingEfficiency,
                    NodeShape shape, boolean idleScaling) {
        this.plans = Map.copyOf(plans);
        this.longer = Map.copyOf(longer);
        this.minScalingEfficiency = minScalingEfficiency;
        this.shape = shape;
        this.idleScaling = idleScaling;
        this.training = new AdaptiveTraining(this::plan);
    }

    @Override
    public double retuneIntervalS() {
        return RETUNE_INTERVAL_S;
    }

    @Override
    public boolean adapts(JobRequest job) {
        return plans.containsKey(job.id());
    }

    @Override
    public ElasticPolicy.JobModel model() {
        return training;
    }

    /** True when jobs also scale into idle GPUs while nobody waits. */
    public boolean idleScaling() {
        return idleScaling;
    }

    /** The rule's choice alone: what a job that restarts anyway (a preempted one) is queued as. */
    @Override
    public int wantedGpus(JobRequest job, double progress, int currentGpus, double restartCostS) {
        RetunePlan p = plan(job);
        double[] left = secondsLeft(p, progress);
        return ruled(left, ScaleOutRule.gpus(left, minScalingEfficiency), currentGpus, restartCostS);
    }

    /**
     * Each job's rule choice, and with idle scaling the idle GPUs {@link IdleScaling#share shared out} among the jobs
     * while nobody waits.
     */
    @Override
    public int[] wantedGpus(List<JobRequest> jobs, double[] progress, double restartCostS, SpareGpus spare) {
        if (!idleScaling) {
            return AdaptiveJobs.super.wantedGpus(jobs, progress, restartCostS, spare);
        }
        if (spare.jobsWaiting()) {
            // No grow while a job waits; what jobs give back for it is decided apart (giveBackOrder).
            return jobs.stream().mapToInt(j -> (int) Math.round(j.gpus())).toArray();
        }
        return IdleScaling.share(asks(jobs, progress, restartCostS), spare.free());
    }

    /** With idle scaling, the jobs holding idle GPUs ({@link IdleScaling#giveBackOrder}). */
    @Override
    public List<SpareGpus.GiveBack> giveBackOrder(List<JobRequest> jobs, double[] progress, double restartCostS) {
        return idleScaling ? IdleScaling.giveBackOrder(asks(jobs, progress, restartCostS)) : List.of();
    }

    @Override
    public boolean usesIdleGpus() {
        return idleScaling;
    }

    private List<IdleScaling.Ask> asks(List<JobRequest> jobs, double[] progress, double restartCostS) {
        List<IdleScaling.Ask> asks = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            asks.add(ask(jobs.get(i), progress[i], (int) Math.round(jobs.get(i).gpus()), restartCostS));
        }
        return asks;
    }

    /** A job's part in an idle share. */
    private IdleScaling.Ask ask(JobRequest job, double progress, int current, double restartCostS) {
        RetunePlan p = plan(job);
        double[] left = secondsLeft(p, progress);
        int rule = ScaleOutRule.gpus(left, minScalingEfficiency);
        // Judged on nodes of no more GPUs than the profile measured on one (IdleScaling, "as measured").
        return new IdleScaling.Ask(n -> idleSecondsLeft(job, n, progress), rule,
                ruled(left, rule, current, restartCostS), current, restartCostS, p.model().gpusWithinData(Integer.MAX_VALUE));
    }

    /**
     * With idle scaling, a job that arrives while nobody waits starts with the count its model predicts finishes
     * soonest, up to what idle scaling would grow it to or what its submitter asked for, whichever is more, if that
     * many GPUs are free for its gang (there is no restart to pay for yet); otherwise with the tuner's count. What it
     * starts with is taken from {@code spare}, so that jobs arriving with it do not count on the same GPUs.
     */
    @Override
    public int arrivalGpus(JobRequest job, SpareGpus spare) {
        int tuned = (int) Math.round(job.gpus());
        if (!idleScaling || spare.jobsWaiting()) {
            return tuned;
        }
        IdleScaling.Ask a = ask(job, 0, tuned, 0);
        int want = IdleScaling.atArrival(a.left(), tuned, a.bound(),
                n -> spare.fits(resized(job, n)));
        spare.take(resized(job, want));
        return want;
    }

    /**
     * Predicted seconds for idle scaling to finish from {@code progress} on {@code gpus} GPUs, as measured: on the
     * job's plan, or on its longer plan if it has one and that is sooner there (a larger batch that reaches the
     * target only in the epochs the job was submitted with can pay on GPUs its plan's batches cannot spread over).
     */
    private double idleSecondsLeft(JobRequest job, int gpus, double progress) {
        return soonerPlan(job, gpus, progress).secondsLeft();
    }

    /** A plan and its predicted seconds to finish on some GPU count (NaN where it cannot run on them). */
    private record PlanChoice(RetunePlan plan, double secondsLeft) {
    }

    /**
     * The job's plan, or its longer plan while it may still take it (idle scaling on, not taken yet) if that finishes
     * sooner on {@code gpus} GPUs from {@code progress} (or the plan cannot run on them); each predicted once, as
     * idle scaling asks this for every count it weighs.
     */
    private PlanChoice soonerPlan(JobRequest job, int gpus, double progress) {
        RetunePlan p = plan(job);
        double s = p.remainingSecondsAsMeasured(gpus, progress);
        RetunePlan l = idleScaling && !lengthened.contains(job.id()) ? longer.get(job.id()) : null;
        if (l != null) {
            double viaLonger = l.remainingSecondsAsMeasured(gpus, progress);
            if (viaLonger < orInfinity(s)) {
                return new PlanChoice(l, viaLonger);
            }
        }
        return new PlanChoice(p, s);
    }

    /**
     * The job (re)starts on {@code gpus} GPUs at {@code progress}: with idle scaling it takes its longer plan here if
     * that finishes sooner on them, as idle scaling predicted when it chose the count. Only at a start, because the
     * batches of the epochs to come, and so the run time, are fixed when a stint starts.
     */
    @Override
    public void restarting(JobRequest job, int gpus, double progress) {
        if (soonerPlan(job, gpus, progress).plan() != plan(job)) {
            lengthened.add(job.id());
        }
    }

    private static double orInfinity(double s) {
        return Double.isNaN(s) ? Double.POSITIVE_INFINITY : s;
    }

    /**
     * Predicted seconds to finish from {@code progress} on 1..cap GPUs (index 0 unused), as measured: on nodes of no
     * more GPUs than the profile measured on one, like the one-time tuner's choice the rule starts from.
     */
    private static double[] secondsLeft(RetunePlan p, double progress) {
        double[] left = new double[p.cap() + 1];
        left[0] = Double.NaN;
        for (int n = 1; n <= p.cap(); n++) {
            left[n] = p.remainingSecondsAsMeasured(n, progress);
        }
        return left;
    }

    /** From {@code currentGpus}, the rule's count {@code chosen} if the change pays for its restart. */
    private static int ruled(double[] left, int chosen, int currentGpus, double restartCostS) {
        if (chosen == 0 || chosen == currentGpus) {
            // nothing fits, nothing is left to train (0 s on every count), or the job already has what it is worth
            return currentGpus;
        }
        if (currentGpus < 1 || currentGpus >= left.length || Double.isNaN(left[currentGpus])) {
            return chosen;
        }
        boolean pays = chosen > currentGpus ? left[chosen] + restartCostS < left[currentGpus]
                : chosen * (left[chosen] + restartCostS) < currentGpus * left[currentGpus];
        return pays ? chosen : currentGpus;
    }

    /** The packed gang the one-time tuner queues a job of {@code gpus} GPUs as ({@link NodeShape#gangFor}). */
    @Override
    public JobRequest resized(JobRequest job, int gpus) {
        return shaped(job, shape.gangFor(gpus));
    }

    @Override
    public JobRequest inPlace(JobRequest job, int gpus) {
        return shaped(job, new NodeShape.Gang(gpus, shape.gangFor(1).perTask()));
    }

    private static JobRequest shaped(JobRequest job, NodeShape.Gang gang) {
        return gang.tasks() == job.tasks() && gang.perTask().equals(job.perTask()) ? job
                : new JobRequest(job.id(), job.user(), gang.tasks(), gang.perTask(), job.submitTime(), job.priority(),
                job.predictedDurationS(), job.trueDurationS());
    }

    @Override
    public void trained(JobRequest job, List<String> nodes, double fromProgress, double toProgress) {
        RetunePlan p = plan(job);
        TreeSet<Integer> used = batchesUsed.computeIfAbsent(job.id(), k -> new TreeSet<>());
        int epoch = training.epochAt(job, fromProgress);
        int last = toProgress > fromProgress ? training.epochAt(job, Math.nextDown(toProgress)) : epoch - 1;
        for (int e = epoch; e <= last; e++) {
            int b = p.batchFor(nodes.size(), e);
            used.add(b < 0 ? p.largestCandidate() : b);
        }
    }

    /** The batches the job has trained at, smallest first; empty before it trained. */
    public List<Integer> batchesUsed(String jobId) {
        return List.copyOf(batchesUsed.getOrDefault(jobId, new TreeSet<>()));
    }

    /** The batch the job trains at in {@code epoch} on {@code gpus} GPUs; -1 when none fits. */
    public int batchFor(JobRequest job, int gpus, int epoch) {
        return plan(job).batchFor(gpus, epoch);
    }

    /**
     * The validation metric the job is credited with: the worst, over the batches it trained at, of what a whole
     * run at that batch reaches in its epochs (a mixed run is taken to be no better than its worst batch); NaN
     * before it trained.
     */
    public double finalMetric(String jobId) {
        RetunePlan p = plan(jobId);
        return p.model().convergence().worstMetric(batchesUsed.getOrDefault(jobId, new TreeSet<>()), p.epochs());
    }

    private RetunePlan plan(JobRequest job) {
        return plan(job.id());
    }

    /** The plan the job trains by now: its longer one once it took it. */
    private RetunePlan plan(String jobId) {
        RetunePlan p = lengthened.contains(jobId) ? longer.get(jobId) : plans.get(jobId);
        if (p == null) {
            throw new IllegalArgumentException("job " + jobId + " is not re-tuned");
        }
        return p;
    }
}
