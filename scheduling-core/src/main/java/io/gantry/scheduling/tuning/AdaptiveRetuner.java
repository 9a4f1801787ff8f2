package io.gantry.scheduling.tuning;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.sim.AdaptiveJobs;
import io.gantry.scheduling.sim.SpareGpus;
import io.gantry.scheduling.trace.NodeShape;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The tuner's adaptive mode in a replay: each job starts as the one-time {@link TrainingTuner} set it, then its batch
 * size (and AdaScale learning-rate scaling, which follows the batch) is re-chosen at every epoch boundary by its
 * {@link RetunePlan}, and its GPU count every {@value #RETUNE_INTERVAL_S} s of simulated time, Pollux's
 * re-allocation interval. The GPU count follows the one-time tuner's rule ({@link ScaleOutRule}) on the training that
 * is left: each GPU up to the count, at most its cap, must do at least the tuner's minimum share (0.7 by default) of
 * one GPU's work, judged on the predicted seconds to finish. A change must pay for its own checkpoint-restart: a
 * grow only if it finishes sooner restart included, a shrink only if it saves GPU-seconds restart included. With
 * idle scaling on, a job may also grow past the rule into GPUs nobody waits for ({@link IdleScaling}). No constant
 * here was chosen on a workload.
 */
public final class AdaptiveRetuner implements AdaptiveJobs {

    /** Pollux's re-allocation interval (its simulator's {@code interval=60}), used for the same cadence here. */
    public static final double RETUNE_INTERVAL_S = 60;

    private final Map<String, RetunePlan> plans;
    private final double minScalingEfficiency;
    private final NodeShape shape;
    private final AdaptiveTraining training;
    private final boolean idleScaling;
    private final Map<String, TreeSet<Integer>> batchesUsed = new HashMap<>();

    /**
     * @param plans by job id: the jobs it re-tunes (trace jobs and their {@code --repeat} copies)
     * @param shape the cluster's node type, for the gangs jobs are queued as
     */
    AdaptiveRetuner(Map<String, RetunePlan> plans, double minScalingEfficiency, NodeShape shape) {
        this(plans, minScalingEfficiency, shape, false);
    }

    /** @param idleScaling true: jobs also scale into idle GPUs while nobody waits ({@link IdleScaling}) */
    AdaptiveRetuner(Map<String, RetunePlan> plans, double minScalingEfficiency, NodeShape shape, boolean idleScaling) {
        this.plans = Map.copyOf(plans);
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
     * The rule's choice, and with idle scaling what {@link IdleScaling} adds while nobody waits; a grow into idle
     * GPUs is taken from {@code spare}, so that jobs asked after this one in the same re-tune do not count on them.
     */
    @Override
    public int wantedGpus(JobRequest job, double progress, int currentGpus, double restartCostS, SpareGpus spare) {
        RetunePlan p = plan(job);
        double[] left = secondsLeft(p, progress);
        int rule = ScaleOutRule.gpus(left, minScalingEfficiency);
        int ruled = ruled(left, rule, currentGpus, restartCostS);
        if (!idleScaling) {
            return ruled;
        }
        // Judged on nodes of no more GPUs than the profile measured on one (IdleScaling, "as measured").
        int want = IdleScaling.gpus(n -> p.remainingSecondsAsMeasured(n, progress), rule, ruled,
                currentGpus, restartCostS, spare.jobsWaiting(), extra -> spare.fits(resized(job, extra)));
        if (want > currentGpus) {
            spare.take(resized(job, want - currentGpus));
        }
        return want;
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
        RetunePlan p = plans.get(jobId);
        double worst = Double.NaN;
        for (int b : batchesUsed.getOrDefault(jobId, new TreeSet<>())) {
            double m = p.model().convergence().bestMetric(b, p.epochs());
            if (Double.isNaN(worst) || !p.model().convergence().reaches(m, worst)) {
                worst = m;
            }
        }
        return worst;
    }

    private RetunePlan plan(JobRequest job) {
        RetunePlan p = plans.get(job.id());
        if (p == null) {
            throw new IllegalArgumentException("job " + job.id() + " is not re-tuned");
        }
        return p;
    }
}
