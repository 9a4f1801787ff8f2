package io.gantry.runner;

import static io.gantry.runner.CheckpointFiles.readArray;
import static io.gantry.runner.CheckpointFiles.readNullable;
import static io.gantry.runner.CheckpointFiles.writeArray;
import static io.gantry.runner.CheckpointFiles.writeNullable;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.XavierInitializer;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.training.model.Datasets;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * One training run of a spec on its dataset: deterministic for a seed on a CPU with one thread, checkpointed at every
 * epoch end and whenever it is asked to stop, resumed from the newest checkpoint.
 *
 * <p>Why an interrupted and resumed run ends with the same weights as an uninterrupted one: every source of chance is
 * a function of the seed and the position in the run, never of how the run got there. The initial weights come from
 * the seed; the order of the training rows in epoch {@code e} is a shuffle seeded by (seed, e); the engine's random
 * generator (dropout masks) is reseeded from (seed, step) before every step. The optimiser's state (Adam's moments,
 * SGD's momentum) is written with the weights. So after a checkpoint at step boundary k, the resumed run computes
 * exactly the steps k+1... the uninterrupted run computes, with the same inputs, on one thread, in the same order.
 *
 * <p>A run resumed with another batch size than its checkpoint's (the job was re-tuned while it ran) changes it at an
 * epoch boundary: a checkpoint taken mid-epoch finishes that epoch at the checkpoint's batch size, one taken at an
 * epoch end trains the next epoch at the new one. Each epoch's batch size is kept ({@link #epochBatchSizes()}, in the
 * checkpoint too). The rules above still hold, so such a run is deterministic for its seed and its sequence of epoch
 * batch sizes: two runs of one seed re-tuned to the same batch at the same epoch end with the same weights, while a
 * run that was never re-tuned takes other steps and ends elsewhere. Where a stop lands (mid-epoch or not) decides at
 * which epoch the new batch size starts, so that sequence, not the time of the re-tune, is what a result depends on.
 * The new spec's learning rate applies from the first step after the restart.
 */
final class Training implements AutoCloseable {

    /** What the run reports as it goes. */
    interface Listener {
        /** Called after a step; {@code epochEnded} is true at the end of an epoch, after validation. */
        void progress(Status status, boolean epochEnded);
    }

    /** Where the run stands. */
    record Status(int epochsDone, int stepInEpoch, int stepsPerEpoch, long globalStep, int plannedEpochs,
                  double epochTrainLoss, Double validationLoss, Double validationAccuracy, Double testAccuracy,
                  Integer targetReachedEpoch, long samplesThisAttempt, double trainingSeconds, int batchSize) {
        double progress() {
            double done = epochsDone + (double) stepInEpoch / Math.max(1, stepsPerEpoch);
            return Math.min(1.0, done / plannedEpochs);
        }
    }

    /** The end of a run: finished (all epochs or target reached) or stopped at a checkpoint. */
    record Outcome(boolean finished, Status status, Evaluation test) {
    }

    record Evaluation(double loss, double accuracy, int[][] confusion) {
    }

    private final TrainingSpec spec;
    private final Datasets.Loaded data;
    private final Path checkpointDir;
    private final NDManager manager;
    private final GraphBlock block;
    private final ParameterStore store;
    private final List<Parameter> trainable = new ArrayList<>();
    private final List<NDArray> moment1 = new ArrayList<>();
    private final List<NDArray> moment2 = new ArrayList<>();
    /** The spec's batch size (at most the training split): what every epoch from the next boundary on trains at. */
    private final int specBatchSize;
    /** The batch size of the epoch in progress: the checkpoint's until an epoch boundary when a re-tune changed it. */
    private int batchSize;
    private int stepsPerEpoch;
    private final List<Integer> epochBatchSizes = new ArrayList<>();
    private final Shape sampleShape;

    private int epochsDone;
    private int stepInEpoch;
    private long globalStep;
    private double epochLossSum;
    private int epochSamples;
    private Double validationLoss;
    private Double validationAccuracy;
    private Double testAccuracy;
    private Integer targetReachedEpoch;
    private long samplesThisAttempt;
    private double trainingSeconds;
    private boolean resumed;

    Training(TrainingSpec spec, Datasets.Loaded data, Path checkpointDir) {
        this.spec = spec;
        this.data = data;
        this.checkpointDir = checkpointDir;
        this.specBatchSize = Math.min(spec.batchSize(), data.train().size());
        useBatchSize(specBatchSize);
        this.sampleShape = new Shape(java.util.Arrays.stream(data.info().inputShape()).asLongStream().toArray());
        this.manager = NDManager.newBaseManager(Device.cpu());
        Engine.getInstance().setRandomSeed(seedOf(spec.seed(), -1));
        this.block = new GraphBlock(spec.model(), data.info());
        block.setInitializer(new XavierInitializer(), Parameter.Type.WEIGHT);
        block.initialize(manager, DataType.FLOAT32, GraphBlock.withBatch(1, data.info().inputShape()));
        this.store = new ParameterStore(manager, false);
        for (Parameter p : block.getParameters().values()) {
            if (p.requiresGradient()) {
                trainable.add(p);
                NDArray w = p.getArray();
                moment1.add(manager.zeros(w.getShape()));
                moment2.add(manager.zeros(w.getShape()));
            }
        }
    }

    /** Trains at {@code batch} from here on (the start of an epoch, or a resumed run's checkpointed epoch). */
    private void useBatchSize(int batch) {
        int rows = data.train().size();
        batchSize = batch;
        // A last batch of one row is left out (a different row each epoch): batch norm cannot train on one sample.
        stepsPerEpoch = rows % batchSize == 1 && rows > 1 ? rows / batchSize : (rows + batchSize - 1) / batchSize;
    }

    /** The batch size of every epoch trained so far, epoch 1 first (over all attempts). */
    List<Integer> epochBatchSizes() {
        return List.copyOf(epochBatchSizes);
    }

    /** A seed for position {@code position} of the run: the same for the same seed and position, whatever came before. */
    static int seedOf(long seed, long position) {
        long h = seed * 0x9E3779B97F4A7C15L + position * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        return (int) (h & 0x7fffffff);
    }

    boolean resumed() {
        return resumed;
    }

    int batchSize() {
        return batchSize;
    }

    /** Trains until the planned epochs are done, the target is met, or {@code stop} says so (then checkpoints). */
    Outcome run(BooleanSupplier stop, Listener listener) throws IOException {
        int planned = spec.epochs();
        while (epochsDone < planned && targetReachedEpoch == null) {
            int[] order = epochOrder(epochsDone);
            while (stepInEpoch < stepsPerEpoch) {
                if (stop.getAsBoolean()) {
                    writeCheckpoint();
                    return new Outcome(false, status(), null);
                }
                long t0 = System.nanoTime();
                int from = stepInEpoch * batchSize;
                int to = Math.min(order.length, from + batchSize);
                double loss = step(order, from, to);
                trainingSeconds += (System.nanoTime() - t0) / 1e9;
                epochLossSum += loss * (to - from);
                epochSamples += to - from;
                samplesThisAttempt += to - from;
                stepInEpoch++;
                globalStep++;
                if (stepInEpoch < stepsPerEpoch) {
                    listener.progress(status(), false);
                }
            }
            Evaluation v = evaluate(data.validation());
            validationLoss = v.loss();
            validationAccuracy = v.accuracy();
            epochsDone++;
            TrainingTarget target = spec.target();
            if (target != null && TrainingTarget.TEST_ACCURACY.equals(target.metric())) {
                testAccuracy = evaluate(data.test()).accuracy();
            }
            if (target != null) {
                double reached = TrainingTarget.TEST_ACCURACY.equals(target.metric()) ? testAccuracy : validationAccuracy;
                if (reached >= target.value()) {
                    targetReachedEpoch = epochsDone;
                }
            }
            double epochTrainLoss = currentEpochLoss();
            epochBatchSizes.add(batchSize);
            stepInEpoch = 0;
            epochLossSum = 0;
            epochSamples = 0;
            // Taken after the step counter is reset: before, epochsDone was already counted and stepInEpoch still
            // stood at stepsPerEpoch, so every epoch end reported one epoch too many (2/12 after the first).
            Status atEnd = status(epochTrainLoss);
            useBatchSize(specBatchSize); // a re-tuned batch size starts at this boundary
            writeCheckpoint();
            listener.progress(atEnd, true);
        }
        return new Outcome(true, status(), evaluate(data.test()));
    }

    private Status status() {
        return status(currentEpochLoss());
    }

    private Status status(double epochTrainLoss) {
        return new Status(epochsDone, stepInEpoch, stepsPerEpoch, globalStep, spec.epochs(), epochTrainLoss,
                validationLoss, validationAccuracy, testAccuracy, targetReachedEpoch, samplesThisAttempt,
                trainingSeconds, epochBatchSizes.isEmpty() || stepInEpoch > 0 ? batchSize
                        : epochBatchSizes.get(epochBatchSizes.size() - 1));
    }

    private double currentEpochLoss() {
        return epochSamples == 0 ? Double.NaN : epochLossSum / epochSamples;
    }

    /** The training rows of epoch {@code e} in their order: a shuffle seeded by (seed, e). */
    private int[] epochOrder(int epoch) {
        int n = data.train().size();
        List<Integer> idx = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            idx.add(i);
        }
        java.util.Collections.shuffle(idx, new Random(seedOf(spec.seed(), 1_000_000L + epoch)));
        return idx.stream().mapToInt(Integer::intValue).toArray();
    }

    private double step(int[] order, int from, int to) {
        Engine.getInstance().setRandomSeed(seedOf(spec.seed(), globalStep));
        int b = to - from;
        int features = (int) sampleShape.size();
        int classes = data.info().classes();
        float[] x = new float[b * features];
        float[] oneHot = new float[b * classes];
        for (int i = 0; i < b; i++) {
            int row = order[from + i];
            System.arraycopy(data.train().x()[row], 0, x, i * features, features);
            oneHot[i * classes + data.train().y()[row]] = 1f;
        }
        double lossValue;
        try (NDManager m = manager.newSubManager()) {
            NDArray input = m.create(x, new Shape(b).addAll(sampleShape));
            NDArray target = m.create(oneHot, new Shape(b, classes));
            try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                NDArray logits = block.forward(store, new NDList(input), true).singletonOrThrow();
                NDArray loss = logits.logSoftmax(1).mul(target).sum(new int[]{1}).neg().mean();
                lossValue = loss.getFloat();
                gc.backward(loss);
            }
            OptimiserStep.apply(spec, trainable, moment1, moment2, globalStep + 1, m);
        }
        return lossValue;
    }

    /** Mean cross-entropy, accuracy and confusion matrix of the current weights on {@code split}. */
    Evaluation evaluate(Datasets.Split split) {
        return SplitEvaluation.of(block, store, manager, sampleShape, data.info().classes(), split);
    }

    // ---- checkpoints (the files: CheckpointFiles) ----

    /** Writes the whole state to a new checkpoint file, keeping the newest two. */
    void writeCheckpoint() throws IOException {
        CheckpointFiles.write(checkpointDir, globalStep, out -> {
            out.writeUTF(spec.modelKey());
            out.writeLong(spec.seed());
            out.writeInt(batchSize);
            out.writeInt(epochsDone);
            out.writeInt(stepInEpoch);
            out.writeLong(globalStep);
            out.writeDouble(epochLossSum);
            out.writeInt(epochSamples);
            writeNullable(out, validationLoss);
            writeNullable(out, validationAccuracy);
            writeNullable(out, testAccuracy);
            out.writeInt(targetReachedEpoch == null ? -1 : targetReachedEpoch);
            block.saveParameters(out);
            out.writeInt(trainable.size());
            for (int i = 0; i < trainable.size(); i++) {
                writeArray(out, moment1.get(i));
                writeArray(out, moment2.get(i));
            }
            CheckpointFiles.writeInts(out, epochBatchSizes);
        });
    }

    /** Loads the newest checkpoint, if any; false when there is none. A checkpoint of another run is an error. */
    boolean resumeFromNewest() throws IOException {
        Optional<Path> found = CheckpointFiles.newest(checkpointDir);
        if (found.isEmpty()) {
            return false;
        }
        Path newest = found.get();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(newest)))) {
            boolean listsBatchSizes = CheckpointFiles.readVersion(in, newest) >= 2;
            String key = in.readUTF();
            long seed = in.readLong();
            int batch = in.readInt();
            if (!key.equals(spec.modelKey()) || seed != spec.seed()) {
                throw new IOException(newest + " belongs to another run (model " + key + ", seed " + seed
                        + "; this run: model " + spec.modelKey() + ", seed " + spec.seed() + ")");
            }
            useBatchSize(batch);
            epochsDone = in.readInt();
            stepInEpoch = in.readInt();
            globalStep = in.readLong();
            epochLossSum = in.readDouble();
            epochSamples = in.readInt();
            validationLoss = readNullable(in);
            validationAccuracy = readNullable(in);
            testAccuracy = readNullable(in);
            int reached = in.readInt();
            targetReachedEpoch = reached < 0 ? null : reached;
            block.loadParameters(manager, in);
            int n = in.readInt();
            if (n != trainable.size()) {
                throw new IOException(newest + ": optimiser state for " + n + " parameters, the model has "
                        + trainable.size());
            }
            for (int i = 0; i < n; i++) {
                readArray(in, moment1.get(i));
                readArray(in, moment2.get(i));
            }
            epochBatchSizes.clear();
            // A checkpoint written before re-tuning existed trained every epoch at its one batch size.
            epochBatchSizes.addAll(listsBatchSizes ? CheckpointFiles.readInts(in) : Collections.nCopies(epochsDone, batch));
        } catch (MalformedModelException e) {
            throw new IOException(newest + ": " + e.getMessage(), e);
        }
        // Loaded arrays replace the initialised ones without gradient tracking (as in SacAgent).
        trainable.clear();
        for (Parameter p : block.getParameters().values()) {
            if (p.requiresGradient()) {
                p.getArray().setRequiresGradient(true);
                trainable.add(p);
            }
        }
        resumed = true;
        if (stepInEpoch == 0) {
            useBatchSize(specBatchSize); // at an epoch boundary: a re-tuned batch size starts now
        }
        return true;
    }

    /** Every trainable and running value of the model, in order: what "the same weights" compares. */
    void writeWeights(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        block.saveParameters(data);
        data.flush();
    }

    @Override
    public void close() {
        manager.close();
    }

}
