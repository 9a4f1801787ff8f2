package io.gantry.scheduling.pollux;

/**
 * What the Pollux policy remembers of one job between rounds, as Pollux's simulator keeps it on its {@code Job}:
 * training progress when its current allocation began, how often it was re-allocated ({@code num_restarts}) and
 * the most GPUs it has run on ({@code max_profiled_replicas}, which bounds how far it may grow next:
 * {@code max_replicas = min(max(2 · max_profiled_replicas, 1), 64, max_batch_size ÷ min_local_bsz)}).
 */
final class PolluxJobState {

    double progressAtStart;
    int restarts;
    int starts;
    int maxProfiledReplicas;
}
