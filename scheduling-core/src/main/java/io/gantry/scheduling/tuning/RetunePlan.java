package io.gantry.scheduling.tuning;

import io.gantry.scheduling.trace.PolluxAppProfile;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What the adaptive tuner may choose for one kind of job, and what the fitted models predict for it: the same
 * {@link GoodputModel} the one-time {@link TrainingTuner} decides with. The job trains the epochs the one-time tuner
 * planned, to the same target metric, so a batch is a candidate only if the measured validation curves say a run at
 * that batch reaches the target within those epochs (validated batches, the submitted and the one-time tuner's batch;
 * a conservative test, since the job uses a larger batch only for later epochs). On n GPUs, each epoch trains at the
 * candidate with the highest fitted goodput for that epoch: as the gradient noise scale grows during training, larger
 * batches lose less statistical efficiency and that choice grows. Predictions are per n GPUs packed onto nodes of
 * {@code gpusPerNode}; epoch boundaries are the measured profile's, the simulator's units of progress.
 */
final class RetunePlan {

    /** Per GPU count: the batch of each epoch (-1 when no candidate fits on that many GPUs) and predicted seconds. */
    private record Tables(int[] batch, double[] epochSeconds, double[] secondsFrom) {
    }

    private final GoodputModel model;
    private final PolluxAppProfile measured;
    private final int cap;
    private final int epochs;
    private final double target;
    private final int[] candidates;
    private final int gpusPerNode;
    /** GPUs per node within the profile's measurements ({@link GoodputModel#gpusPerNodeWithinData}). */
    private final int measuredPerNode;
    private final Map<Long, Tables> byGpus = new HashMap<>();

    /**
     * @param cap     most GPUs the job may get (what the one-time tuner allows it)
     * @param epochs  epochs it trains (the one-time tuner's)
     * @param batches batches to consider; those that do not reach {@code target} within {@code epochs} are dropped
     */
    RetunePlan(GoodputModel model, PolluxAppProfile measured, int cap, int epochs, double target, int[] batches,
               int gpusPerNode) {
        this.model = model;
        this.measured = measured;
        this.cap = cap;
        this.epochs = epochs;
        this.target = target;
        this.gpusPerNode = gpusPerNode;
        this.measuredPerNode = model.gpusPerNodeWithinData(gpusPerNode);
        this.candidates = Arrays.stream(batches).distinct().sorted()
                .filter(b -> model.convergence().epochsToReach(b, target, epochs) >= 1).toArray();
        if (candidates.length == 0) {
            throw new IllegalArgumentException(model.app() + ": no batch reaches target " + target + " in " + epochs + " epochs");
        }
    }

    int cap() {
        return cap;
    }

    int epochs() {
        return epochs;
    }

    double target() {
        return target;
    }

    GoodputModel model() {
        return model;
    }

    PolluxAppProfile measured() {
        return measured;
    }

    /** How many batches reach the target within this plan's epochs. */
    int candidates() {
        return candidates.length;
    }

    int largestCandidate() {
        return candidates[candidates.length - 1];
    }

    /** Statistical progress at the end of {@code epoch}. */
    double progressAt(int epoch) {
        return measured.progressAt(epoch);
    }

    /** The batch an epoch trains at on {@code gpus} GPUs; -1 when no candidate can be spread over that many. */
    int batchFor(int gpus, int epoch) {
        return tables(gpus, gpusPerNode).batch[Math.min(epoch, epochs - 1)];
    }

    /**
     * Predicted seconds of training left from {@code progress} on {@code gpus} GPUs packed onto the cluster's nodes
     * (no restart); NaN if none fits. Not what decisions use ({@link #remainingSecondsAsMeasured}): it is the
     * extrapolation that one corrects, kept so that {@code RetunePlanTest} shows where the two part.
     */
    double remainingSeconds(int gpus, double progress) {
        return remainingSeconds(tables(gpus, gpusPerNode), progress);
    }

    /**
     * The same, with the GPUs packed onto nodes of no more GPUs than the profile's measurements had on a node: a
     * prediction within the data the throughput model was fitted on. On larger nodes the fitted synchronisation line
     * of one node is extrapolated past its data, and there the measured profile (what the simulator trains by) falls
     * back to a cross-node configuration, so a plain {@link #remainingSeconds} over-promises a grow within a node.
     */
    double remainingSecondsAsMeasured(int gpus, double progress) {
        return remainingSeconds(tables(gpus, measuredPerNode), progress);
    }

    private double remainingSeconds(Tables t, double progress) {
        int e = 0;
        while (e < epochs && progress >= progressAt(e + 1)) {
            e++;
        }
        if (e >= epochs) {
            return 0;
        }
        double share = (progressAt(e + 1) - progress) / (progressAt(e + 1) - progressAt(e));
        return Math.min(1, share) * t.epochSeconds[e] + t.secondsFrom[e + 1];
    }

    /** Per-epoch batches and predicted seconds on {@code gpus} GPUs packed onto nodes of {@code perNode}. */
    private Tables tables(int gpus, int perNode) {
        long key = (long) gpus << 32 | perNode;
        Tables t = byGpus.get(key);
        if (t == null) {
            // The batches are the ones the job trains at (chosen for the cluster's nodes); only their timing differs.
            int[] batch = perNode == gpusPerNode ? bestBatches(gpus) : tables(gpus, gpusPerNode).batch;
            t = timed(gpus, perNode, batch);
            byGpus.put(key, t);
        }
        return t;
    }

    /** Per epoch, the candidate with the highest fitted goodput on {@code gpus} GPUs of the cluster's nodes; -1 if none. */
    private int[] bestBatches(int gpus) {
        int[] batch = new int[epochs];
        for (int e = 0; e < epochs; e++) {
            batch[e] = -1;
            double best = 0;
            for (int b : candidates) {
                if (model.feasible(gpus, b)) {
                    double g = model.goodput(gpus, gpusPerNode, b, e);
                    if (g > best) {
                        best = g;
                        batch[e] = b;
                    }
                }
            }
        }
        return batch;
    }

    private Tables timed(int gpus, int perNode, int[] batch) {
        double[] seconds = new double[epochs];
        double[] from = new double[epochs + 1];
        for (int e = 0; e < epochs; e++) {
            seconds[e] = batch[e] < 0 ? Double.NaN
                    : (progressAt(e + 1) - progressAt(e)) / model.goodput(gpus, perNode, batch[e], e);
        }
        for (int e = epochs - 1; e >= 0; e--) {
            from[e] = from[e + 1] + seconds[e];
        }
        return new Tables(batch, seconds, from);
    }
}
