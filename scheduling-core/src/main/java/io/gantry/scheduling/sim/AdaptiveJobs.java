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
     * The same, knowing the cluster's idle GPUs at this re-tune ({@code spare}): a job that scales into idle GPUs
     * while nobody waits says so here, and {@link SpareGpus#take takes} what it asks for. By default the idle GPUs do
     * not matter.
     */
    default int wantedGpus(JobRequest job, double progress, int currentGpus, double restartCostS, SpareGpus spare) {
        return wantedGpus(job, progress, currentGpus, restartCostS);
    }

    /** {@code job} as it waits for {@code gpus} GPUs: the gang it is queued as (its grow requests too). */
    JobRequest resized(JobRequest job, int gpus);

    /** {@code job} as it holds {@code gpus} GPUs while it runs: one task of a GPU's share of a node each. */
    JobRequest inPlace(JobRequest job, int gpus);

    /** One stint of the job ended: it trained from {@code fromProgress} to {@code toProgress} on {@code nodes}. */
    void trained(JobRequest job, List<String> nodes, double fromProgress, double toProgress);
}
