package io.gantry.scheduling.tuning;

import io.gantry.scheduling.trace.PolluxAppProfile;
import java.nio.file.Path;

/**
 * One application's fitted models together: run time of a configuration (GPUs, total batch, epochs) predicted as
 * Σ over epochs of (statistical progress of the epoch) ÷ goodput, goodput = throughput × efficiency, i.e.
 * {@code gain(M) ÷ T_iter} initial-batch iterations per second. Gradient accumulation and the per-GPU batch limits
 * follow Pollux ({@link PolluxAppProfile#split}); GPUs are packed onto nodes of {@code gpusPerNode}.
 */
public final class GoodputModel {

    /** Pollux charges this once per allocation (checkpoint-restart); kept so predictions compare with its durations. */
    static final double START_DELAY_S = 30;

    private final String app;
    private final PolluxAppProfile limits;
    private final ThroughputModel throughput;
    private final EfficiencyModel efficiency;
    private final ConvergenceModel convergence;
    private final double minLocalBsz;
    private final double throughputFitError;

    public GoodputModel(String app, PolluxAppProfile limits, ProfileMeasurements data) {
        this.app = app;
        this.limits = limits;
        this.throughput = ThroughputModel.fit(data.steps());
        this.efficiency = new EfficiencyModel(data.validation());
        this.convergence = new ConvergenceModel(data.validation());
        this.minLocalBsz = data.minLocalBsz();
        this.throughputFitError = ThroughputModel.meanRelativeError(throughput, data.steps());
    }

    public static GoodputModel load(Path appDir) {
        return new GoodputModel(appDir.getFileName().toString(), PolluxAppProfile.load(appDir), ProfileMeasurements.load(appDir));
    }

    public String app() {
        return app;
    }

    public ThroughputModel throughput() {
        return throughput;
    }

    public EfficiencyModel efficiency() {
        return efficiency;
    }

    public ConvergenceModel convergence() {
        return convergence;
    }

    /** Mean relative error of the fitted step time over every measured row (in-sample). */
    public double throughputFitError() {
        return throughputFitError;
    }

    /**
     * The GPUs per node to predict with on nodes of {@code nodeGpus}: no more than the profile measured on one node
     * (when it says). Past that, the fitted one-node synchronisation line would be extrapolated beyond its data (on
     * 8-GPU nodes with profiles measured on 4-GPU ones it promised 5–8 GPUs on one node a speed-up no measurement
     * shows; bench/README "Idle scaling at 13 × 8"), so more GPUs are predicted as the measured placements run them.
     */
    public int gpusPerNodeWithinData(int nodeGpus) {
        int measured = limits.measuredGpusPerNode();
        return measured > 0 ? Math.min(nodeGpus, measured) : nodeGpus;
    }

    /**
     * The most GPUs to predict a job's time on: as many as the profile measured one run on (when it says). Past
     * that, the fitted throughput model is extrapolated beyond its data, and the measured profile the simulator
     * trains by times such runs from its largest measured configuration.
     */
    public int gpusWithinData(int clusterGpus) {
        int measured = limits.measuredGpus();
        return measured > 0 ? Math.min(clusterGpus, measured) : clusterGpus;
    }

    /** Pollux's {@code max_epochs}: what a job trains when it does not say otherwise. */
    public int defaultEpochs() {
        return limits.maxEpochs();
    }

    /** The smallest measured per-GPU batch (Pollux's {@code min_local_bsz}). */
    public double minLocalBsz() {
        return minLocalBsz;
    }

    /** Pollux's batch limits: per-GPU range, accumulation, largest total batch. */
    public PolluxAppProfile limits() {
        return limits;
    }

    public int minBatch() {
        return limits.initBatch();
    }

    public int maxBatch() {
        return limits.maxBatch();
    }

    /**
     * True when {@code batch} can be spread over {@code gpus} without a GPU getting less than the smallest measured share,
     * nor none at all (so never more GPUs than samples in the batch, nor than {@link #maxBatch()}).
     */
    public boolean feasible(int gpus, int batch) {
        return gpus >= 1 && gpus <= batch && batch >= minBatch() && batch <= maxBatch()
                && Math.ceil(batch / (double) gpus - 1e-8) >= minLocalBsz;
    }

    /** Predicted seconds of one iteration (with accumulation) and the batch actually used. */
    public double[] stepSecondsAndBatch(int gpus, int gpusPerNode, int batch) {
        PolluxAppProfile.BatchSplit split = limits.split(gpus, batch);
        int nodes = (gpus + gpusPerNode - 1) / gpusPerNode;
        double step = throughput.stepSeconds(nodes, gpus, split.atomicBsz());
        double compute = throughput.computeSeconds(split.atomicBsz());
        return new double[] {step + compute * split.accumSteps(), split.batch()};
    }

    /** Goodput in initial-batch iterations per second during {@code epoch}. */
    public double goodput(int gpus, int gpusPerNode, int batch, int epoch) {
        double[] sb = stepSecondsAndBatch(gpus, gpusPerNode, batch);
        return efficiency.gain(sb[1], epoch) / sb[0];
    }

    /** Predicted run time of {@code epochs} epochs. */
    public double predictSeconds(int gpus, int gpusPerNode, int batch, int epochs) {
        double[] sb = stepSecondsAndBatch(gpus, gpusPerNode, batch);
        double seconds = START_DELAY_S;
        for (int e = 0; e < epochs; e++) {
            double progress = convergence.progressAt(e + 1) - convergence.progressAt(e);
            seconds += progress * sb[0] / efficiency.gain(sb[1], e);
        }
        return seconds;
    }
}
