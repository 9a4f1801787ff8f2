package io.gantry.scheduling.pollux;

import io.gantry.scheduling.trace.PolluxAppProfile;
import io.gantry.scheduling.tuning.GoodputModel;
import java.util.HashMap;
import java.util.Map;

/**
 * The batch size (and AdaScale learning-rate factor) that maximises one job's goodput on an allocation, from the
 * application's fitted models: Pollux §3.1 (goodput = throughput × statistical efficiency, eq. 2–4) and §3.2
 * (throughput model), and adaptdl's {@code adaptdl/adaptdl/goodput.py} ({@code GoodputFunction.optimize}), which
 * searches the per-GPU batch between {@code min_local_bsz} and {@code max_local_bsz}, with gradient accumulation
 * when the batch outgrows what the GPUs hold, and keeps the total batch at most {@code max_batch_size}.
 *
 * <p>Goodput here is in initial-batch iterations of progress per second, {@code gain(M) ÷ T_iter(M)}, with
 * {@code gain = (var + sqr) ÷ (var/s + sqr)} from the gradient noise scale at the job's epoch; that is also the
 * factor AdaScale multiplies the learning rate by (Pollux §3.1, "AdaScale"), reported as {@link Choice#lrScale}.
 * The search is a geometric grid of {@value #GRID} total batches from the initial batch to the largest allowed,
 * plus the initial batch itself; results are cached per (nodes, GPUs, epoch).
 */
public final class GoodputOptimizer {

    static final int GRID = 64;

    /** A batch size chosen for an allocation: the goodput it gives and the learning-rate factor it runs with. */
    public record Choice(int batch, double goodput, double lrScale) {
    }

    private final GoodputModel model;
    private final Map<Long, Choice> cache = new HashMap<>();

    public GoodputOptimizer(GoodputModel model) {
        this.model = model;
    }

    public GoodputModel model() {
        return model;
    }

    /** Fitted goodput of total batch {@code batch} on {@code replicas} GPUs over {@code nodes} nodes, in {@code epoch}. */
    public double goodput(int nodes, int replicas, int batch, int epoch) {
        PolluxAppProfile.BatchSplit split = model.limits().split(replicas, batch);
        double step = model.throughput().stepSeconds(nodes, replicas, split.atomicBsz())
                + model.throughput().computeSeconds(split.atomicBsz()) * split.accumSteps();
        return model.efficiency().gain(split.batch(), epoch) / step;
    }

    /** The goodput-maximising batch for the allocation; 0 GPUs gives goodput 0 at the initial batch. */
    public Choice best(int nodes, int replicas, int epoch) {
        if (replicas <= 0) {
            return new Choice(model.minBatch(), 0, 1);
        }
        long key = ((long) nodes << 40) | ((long) replicas << 20) | epoch;
        return cache.computeIfAbsent(key, k -> search(nodes, replicas, epoch));
    }

    private Choice search(int nodes, int replicas, int epoch) {
        int lo = model.minBatch();
        int hi = model.maxBatch();
        int bestBatch = lo;
        double best = -1;
        for (int i = 0; i <= GRID; i++) {
            int batch = (int) Math.round(lo * Math.pow((double) hi / lo, i / (double) GRID));
            if (batch < replicas * model.minLocalBsz() && batch != lo) {
                continue; // fewer samples than the GPUs' smallest share
            }
            double g = goodput(nodes, replicas, batch, epoch);
            if (g > best) {
                best = g;
                bestBatch = batch;
            }
        }
        double used = model.limits().split(replicas, bestBatch).batch();
        return new Choice(bestBatch, best, model.efficiency().gain(used, epoch));
    }
}
