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
    private final Map<Integer, Tables> byGpus = new HashMap<>();

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

    int largestCandidate() {
        return candidates[candidates.length - 1];
    }

    /** Statistical progress at the end of {@code epoch}. */
    double progressAt(int epoch) {
        return measured.progressAt(epoch);
    }

    /** The batch an epoch trains at on {@code gpus} GPUs; -1 when no candidate can be spread over that many. */
    int batchFor(int gpus, int epoch) {
        return tables(gpus).batch[Math.min(epoch, epochs - 1)];
    }

    /** Predicted seconds of training left from {@code progress} on {@code gpus} GPUs (no restart); NaN if none fits. */
    double remainingSeconds(int gpus, double progress) {
        Tables t = tables(gpus);
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

    private Tables tables(int gpus) {
        return byGpus.computeIfAbsent(gpus, n -> {
            int[] batch = new int[epochs];
            double[] seconds = new double[epochs];
            double[] from = new double[epochs + 1];
            for (int e = 0; e < epochs; e++) {
                batch[e] = -1;
                double best = 0;
                for (int b : candidates) {
                    if (model.feasible(n, b)) {
                        double g = model.goodput(n, gpusPerNode, b, e);
                        if (g > best) {
                            best = g;
                            batch[e] = b;
                        }
                    }
                }
                seconds[e] = batch[e] < 0 ? Double.NaN : (progressAt(e + 1) - progressAt(e)) / best;
            }
            for (int e = epochs - 1; e >= 0; e--) {
                from[e] = from[e + 1] + seconds[e];
            }
            return new Tables(batch, seconds, from);
        });
    }
}
