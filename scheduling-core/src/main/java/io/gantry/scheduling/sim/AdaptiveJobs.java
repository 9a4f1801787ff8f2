package io.gantry.scheduling.sim;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/**
 * Jobs that are re-tuned while they run (the tuner's adaptive mode), under any policy. Such a job waits in the
 * queue as the packed gang the tuner asks for ({@link #resized}); once placed, the simulator holds its GPUs one task
 * per GPU ({@link #inPlace}), so that it can grow or shrink by single GPUs. Its run time comes from {@link #model()},
 * which is given one node name per GPU and re-chooses the batch size (and learning-rate scaling) at every epoch
 * boundary at no cost. Every {@link #retuneIntervalS()} of simulated time the simulator asks each running
 * adaptive job for the GPU count it wants ({@link #wantedGpus}): a shrink is done at once, in place; a grow is a
 * request for the extra GPUs that waits in the queue like any pending job until the policy places it. Either change
 * is a checkpoint-restart: the job loses {@link ElasticPolicy.JobModel#restartDelayS()} of run time plus the
 * simulator's preemption cost, exactly as a Pollux re-allocation does. A re-tune also tells each job the cluster's
 * idle GPUs and whether anybody waits ({@link SpareGpus}), for jobs that may use GPUs nobody else wants.
 */
public interface AdaptiveJobs {

    /** Seconds of simulated time between two re-tunes of the running jobs' GPU counts. */
    double retuneIntervalS();

    /** True when {@code job} is re-tuned while it runs; other jobs keep their fixed gang and run time. */
    boolean adapts(JobRequest job);

    /** How far an adaptive job's training gets on an allocation. */
    ElasticPolicy.JobModel model();

    /**
     * The GPU count the job should train on from {@code progress} on; {@code currentGpus} when a change does not pay
     * for its own checkpoint-restart of {@code restartCostS} seconds (0 when the job restarts anyway).
     */
    int wantedGpus(JobRequest job, double progress, int currentGpus, double restartCostS);

    /**
     * The GPU count each running adaptive job of one re-tune wants (in {@code jobs}' order; each holds
     * {@code job.gpus()} and has trained to {@code progress[i]}), knowing the cluster's idle GPUs ({@code spare}):
     * jobs that scale into idle GPUs while nobody waits say so here, and {@link SpareGpus#take take} what they ask
     * for. By default each job is asked alone and the idle GPUs do not matter.
     */
    default int[] wantedGpus(List<JobRequest> jobs, double[] progress, double restartCostS, SpareGpus spare) {
        int[] want = new int[jobs.size()];
        for (int i = 0; i < want.length; i++) {
            JobRequest j = jobs.get(i);
            want[i] = wantedGpus(j, progress[i], (int) Math.round(j.gpus()), restartCostS);
        }
        return want;
    }

    /**
     * Jobs wait: the running adaptive jobs of {@code jobs} that hold GPUs only because nobody waited, in the order they
     * give them back, each with the least it keeps; the caller takes GPUs back from them until the waiting jobs fit.
     * By default none.
     */
    default List<SpareGpus.GiveBack> giveBackOrder(List<JobRequest> jobs, double[] progress, double restartCostS) {
        return List.of();
    }

    /**
     * True when jobs use idle GPUs (idle scaling): a grow while nobody waits then takes free GPUs at once, no grow is
     * asked while a job waits, and GPUs are given back ({@link #giveBackOrder}) where the waiting jobs fit.
     */
    default boolean usesIdleGpus() {
        return false;
    }

    /**
     * The GPU count a job that arrives now is queued for: the tuner's (its gang as submitted) unless it may start
     * straight into GPUs nobody waits for ({@code spare}, from which it then {@link SpareGpus#take takes} them).
     */
    default int arrivalGpus(JobRequest job, SpareGpus spare) {
        return (int) Math.round(job.gpus());
    }

    /** {@code job} as it waits for {@code gpus} GPUs: the gang it is queued as (its grow requests too). */
    JobRequest resized(JobRequest job, int gpus);

    /** {@code job} as it holds {@code gpus} GPUs while it runs: one task of a GPU's share of a node each. */
    JobRequest inPlace(JobRequest job, int gpus);

    /** The job (re)starts on {@code gpus} GPUs from {@code progress}: about to be timed for its next stint. */
    default void restarting(JobRequest job, int gpus, double progress) {
    }

    /** One stint of the job ended: it trained from {@code fromProgress} to {@code toProgress} on {@code nodes}. */
    void trained(JobRequest job, List<String> nodes, double fromProgress, double toProgress);
}
