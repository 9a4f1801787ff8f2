package io.gantry.scheduling.sac;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.ParallelBlock;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.GradientCollector;
import ai.djl.training.LocalParameterServer;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.XavierInitializer;
import ai.djl.training.optimizer.Adam;
import ai.djl.training.tracker.Tracker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Discrete soft actor-critic (Christodoulou 2019) over candidate sets. The actor scores every candidate (one
 * logit each, masked softmax over the set); twin critic MLPs give one Q value per candidate; target
 * critics follow by Polyak averaging; the temperature α is tuned so the policy's entropy tracks
 * {@code targetEntropyRatio × ln(valid candidates)} (a fixed target would be wrong since the number of
 * actions changes from state to state). The networks only ever see one candidate's features, so the same
 * weights serve any number of jobs and nodes. DJL, PyTorch engine, CPU. Not thread-safe.
 *
 * <p><b>Residual actor.</b> A candidate's logit is its heuristic prior logit (a feature, {@link Features}) plus a
 * learned correction {@code residualBound × tanh(MLP(features))}. The MLP's output layer starts at zero, so a fresh
 * agent acts exactly as the prior does and training learns departures from it, never more than the bound
 * (residual policy learning). With {@code priorWeight = 0} the prior is 0 and this is a plain bounded actor.
 */
public final class SacAgent implements AutoCloseable {

    /** Logit added to masked candidates: exp of it is exactly 0 in float, and unlike −∞ it keeps 0 × log p finite. */
    private static final float MASKED_LOGIT = -1e9f;

    static {
        TorchThreads.useOne(); // before this class first touches the engine: a seed's figures depend on it
    }

    /** Mean losses and statistics of one gradient step. */
    public record UpdateStats(double criticLoss, double actorLoss, double entropy, double alpha) {
    }

    private final SacSettings settings;
    /** Features per candidate: the networks' input width. */
    private final int width;
    private final NDManager manager;
    private final Block actor;
    private final Block critic;
    private final Block targetCritic;
    private final ParameterStore actorStore;
    private final ParameterStore criticStore;
    private final ParameterStore plainStore;
    private double logAlpha;
    private final ScalarAdam alphaOptimizer;
    /** Plain copy of the actor's weights for {@link #logits(CandidateSet)}; null when stale. */
    private PlainActor plainActor;

    private SacAgent(SacSettings settings) {
        this.settings = settings;
        this.width = settings.featureCount();
        this.manager = NDManager.newBaseManager(Device.cpu());
        this.actor = mlp(settings.hidden());
        this.critic = twin(settings.hidden());
        this.targetCritic = twin(settings.hidden());
        for (Block b : List.of(actor, critic, targetCritic)) {
            b.setInitializer(new XavierInitializer(), Parameter.Type.WEIGHT);
            b.initialize(manager, DataType.FLOAT32, new Shape(1, width));
        }
        // The correction starts at exactly 0: a fresh agent is the prior.
        Block out = actor.getChildren().valueAt(actor.getChildren().size() - 1);
        out.getParameters().forEach(p -> p.getValue().getArray().set(new float[Math.toIntExact(p.getValue().getArray().size())]));
        this.actorStore = trainingStore(settings);
        this.criticStore = trainingStore(settings);
        this.plainStore = new ParameterStore(manager, false);
        this.logAlpha = Math.log(settings.initialAlpha());
        this.alphaOptimizer = new ScalarAdam(settings.alphaLearningRate());
    }

    /** Fresh networks; the seed fixes their initial weights (PyTorch runs single-threaded: {@link TorchThreads}). */
    public static SacAgent create(SacSettings settings, long seed) {
        Engine.getInstance().setRandomSeed((int) seed);
        SacAgent a = new SacAgent(settings);
        a.copyInto(a.critic, a.targetCritic, 1.0);
        return a;
    }

    private ParameterStore trainingStore(SacSettings s) {
        ParameterStore store = new ParameterStore(manager, false);
        Adam adam = Adam.builder().optLearningRateTracker(Tracker.fixed((float) s.learningRate())).optClipGrad(10f).build();
        store.setParameterServer(new LocalParameterServer(adam), new Device[] {Device.cpu()});
        return store;
    }

    private static Block mlp(int hidden) {
        return new SequentialBlock()
                .add(Linear.builder().setUnits(hidden).build())
                .add(Activation::relu)
                .add(Linear.builder().setUnits(hidden).build())
                .add(Activation::relu)
                .add(Linear.builder().setUnits(1).build());
    }

    /** Two independent Q networks side by side: output (n, 2). */
    private static Block twin(int hidden) {
        return new ParallelBlock(outs -> new NDList(NDArrays.concat(
                new NDList(outs.get(0).singletonOrThrow(), outs.get(1).singletonOrThrow()), -1)),
                List.of(mlp(hidden), mlp(hidden)));
    }

    public SacSettings settings() {
        return settings;
    }

    public double alpha() {
        return Math.exp(logAlpha);
    }

    /** π(·|s): probabilities of every candidate, exactly 0 where masked. */
    public double[] probabilities(CandidateSet s) {
        return maskedSoftmax(logits(s), s.mask());
    }

    /** The actor's logits, computed in plain Java ({@link PlainActor}) from a copy of its weights taken after the last gradient step. */
    float[] logits(CandidateSet s) {
        return plainActor().logits(s);
    }

    /** The same logits through DJL, for checking {@link #logits(CandidateSet)}. */
    float[] djlLogits(CandidateSet s) {
        try (NDManager m = manager.newSubManager()) {
            return logits(m.create(s.features(), new Shape(s.size(), width)), plainStore, false).toFloatArray();
        }
    }

    private PlainActor plainActor() {
        if (plainActor == null) {
            plainActor = PlainActor.of(actor.getParameters(), settings.hidden(), width, settings.residualBound());
        }
        return plainActor;
    }

    /** Prior logit (from the features) + residualBound × tanh(actor MLP): shape (rows, 1). */
    private NDArray logits(NDArray x, ParameterStore store, boolean training) {
        NDArray correction = actor.forward(store, new NDList(x), training).singletonOrThrow().tanh()
                .mul((float) settings.residualBound());
        NDArray prior = x.get(":, " + Features.PRIOR_INDEX + ":" + (Features.PRIOR_INDEX + 1)).mul(Features.PRIOR_SCALE);
        return prior.add(correction);
    }

    static double[] maskedSoftmax(float[] logits, boolean[] mask) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < logits.length; i++) {
            if (mask[i]) {
                max = Math.max(max, logits[i]);
            }
        }
        double[] p = new double[logits.length];
        if (max == Double.NEGATIVE_INFINITY) {
            return p;
        }
        double sum = 0;
        for (int i = 0; i < logits.length; i++) {
            if (mask[i]) {
                p[i] = Math.exp(logits[i] - max);
                sum += p[i];
            }
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= sum;
        }
        return p;
    }

    /** A candidate drawn from π with {@code rng}, or the most probable one when rng is null; −1 when every candidate is masked. */
    public int act(CandidateSet s, SplittableRandom rng) {
        return choose(probabilities(s), s.mask(), rng);
    }

    /** As {@link #act}, from probabilities already computed. */
    static int choose(double[] p, boolean[] mask, SplittableRandom rng) {
        int best = -1;
        if (rng == null) {
            for (int i = 0; i < p.length; i++) {
                if (mask[i] && (best < 0 || p[i] > p[best])) {
                    best = i;
                }
            }
            return best;
        }
        double u = rng.nextDouble();
        double acc = 0;
        for (int i = 0; i < p.length; i++) {
            if (mask[i]) {
                best = i;
                acc += p[i];
                if (u < acc) {
                    return i;
                }
            }
        }
        return best;
    }

    /** One gradient step of the critics, the actor and α on a batch, then the Polyak update of the target critics. */
    public UpdateStats update(List<Transition> batch) {
        PaddedBatch b = PaddedBatch.of(batch, settings.targetEntropyRatio());
        try (NDManager m = manager.newSubManager()) {
            NDArray s = m.create(b.states, new Shape((long) b.n * b.c, width));
            NDArray mask = m.create(b.masks, new Shape(b.n, b.c));
            NDArray s2 = m.create(b.nextStates, new Shape((long) b.n * b.c, width));
            NDArray mask2 = m.create(b.nextMasks, new Shape(b.n, b.c));
            NDArray taken = m.create(b.actions, new Shape(b.n, b.c, 1));
            NDArray reward = m.create(b.rewards);
            NDArray notDone = m.create(b.notDone);
            float alpha = (float) alpha();

            // Soft target: r + γ (1 − done) Σ_a' π(a'|s') [min Q̄(s', a') − α log π(a'|s')].
            NDArray logp2 = maskedLogSoftmax(logits(s2, plainStore, false), mask2, b);
            NDArray q2 = targetCritic.forward(plainStore, new NDList(s2), false).singletonOrThrow()
                    .reshape(b.n, b.c, 2).min(new int[] {2});
            NDArray soft2 = logp2.exp().mul(q2.sub(logp2.mul(alpha))).mul(mask2).sum(new int[] {1});
            NDArray y = reward.add(soft2.mul(notDone).mul((float) settings.gamma())).stopGradient().expandDims(1);

            double criticLoss;
            try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                NDArray q = critic.forward(criticStore, new NDList(s), true).singletonOrThrow().reshape(b.n, b.c, 2);
                NDArray qTaken = q.mul(taken).sum(new int[] {1});
                NDArray loss = qTaken.sub(y).square().mean();
                criticLoss = loss.getFloat();
                gc.backward(loss);
            }
            criticStore.updateAllParameters();

            NDArray qMin = critic.forward(plainStore, new NDList(s), false).singletonOrThrow()
                    .reshape(b.n, b.c, 2).min(new int[] {2}).stopGradient();
            double actorLoss;
            float[] entropy;
            try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                NDArray logp = maskedLogSoftmax(logits(s, actorStore, true), mask, b);
                NDArray p = logp.exp();
                NDArray loss = p.mul(logp.mul(alpha).sub(qMin)).mul(mask).sum(new int[] {1}).mean();
                actorLoss = loss.getFloat();
                entropy = p.mul(logp).mul(mask).sum(new int[] {1}).neg().toFloatArray();
                gc.backward(loss);
            }
            actorStore.updateAllParameters();
            plainActor = null;

            // d/d(log α) of log α × (H − H̄), averaged over the batch.
            double gap = 0;
            double meanEntropy = 0;
            for (int i = 0; i < b.n; i++) {
                gap += entropy[i] - b.targetEntropy[i];
                meanEntropy += entropy[i];
            }
            logAlpha -= alphaOptimizer.step(gap / b.n);
            copyInto(critic, targetCritic, settings.tau());
            return new UpdateStats(criticLoss, actorLoss, meanEntropy / b.n, alpha());
        }
    }

    /** Critic loss on a batch without changing anything (for tests and diagnostics). */
    public double criticLoss(List<Transition> batch) {
        PaddedBatch b = PaddedBatch.of(batch, settings.targetEntropyRatio());
        try (NDManager m = manager.newSubManager()) {
            NDArray s = m.create(b.states, new Shape((long) b.n * b.c, width));
            NDArray s2 = m.create(b.nextStates, new Shape((long) b.n * b.c, width));
            NDArray mask2 = m.create(b.nextMasks, new Shape(b.n, b.c));
            NDArray taken = m.create(b.actions, new Shape(b.n, b.c, 1));
            NDArray logp2 = maskedLogSoftmax(logits(s2, plainStore, false), mask2, b);
            NDArray q2 = targetCritic.forward(plainStore, new NDList(s2), false).singletonOrThrow()
                    .reshape(b.n, b.c, 2).min(new int[] {2});
            NDArray soft2 = logp2.exp().mul(q2.sub(logp2.mul((float) alpha()))).mul(mask2).sum(new int[] {1});
            NDArray y = m.create(b.rewards).add(soft2.mul(m.create(b.notDone)).mul((float) settings.gamma())).expandDims(1);
            NDArray q = critic.forward(plainStore, new NDList(s), false).singletonOrThrow().reshape(b.n, b.c, 2);
            return q.mul(taken).sum(new int[] {1}).sub(y).square().mean().getFloat();
        }
    }

    private static NDArray maskedLogSoftmax(NDArray logits, NDArray mask, PaddedBatch b) {
        NDArray penalty = mask.sub(1f).mul(-MASKED_LOGIT);
        return logits.reshape(b.n, b.c).add(penalty).logSoftmax(1);
    }

    /** target ← τ·source + (1 − τ)·target, parameter by parameter. */
    private void copyInto(Block source, Block target, double tau) {
        var src = source.getParameters();
        var dst = target.getParameters();
        for (int i = 0; i < src.size(); i++) {
            NDArray from = src.valueAt(i).getArray();
            NDArray to = dst.valueAt(i).getArray();
            // Every intermediate closed: they belong to the parameters' (the agent's) manager, which lives as long as the
            // agent. Left open, the two products leaked two native arrays per critic parameter per update (24 each
            // time), and the live scheduler's RSS grew ~0.75 MiB/s under online learning (./gantry soak, bench/README.md).
            try (NDArray fromPart = from.mul((float) tau); NDArray toPart = to.mul((float) (1 - tau));
                 NDArray mixed = fromPart.add(toPart)) {
                to.set(mixed.toFloatArray());
            }
        }
    }

    /** Writes actor, critics and target critics, in that order, followed by log α. */
    public void writeParameters(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        actor.saveParameters(data);
        critic.saveParameters(data);
        targetCritic.saveParameters(data);
        data.writeDouble(logAlpha);
        data.flush();
    }

    /** Networks and α as written by {@link #writeParameters}; any mismatch of shapes or a truncated stream fails. */
    public static SacAgent readParameters(SacSettings settings, InputStream in) throws IOException {
        SacAgent a = new SacAgent(settings);
        try {
            DataInputStream data = new DataInputStream(in);
            a.actor.loadParameters(a.manager, data);
            a.critic.loadParameters(a.manager, data);
            a.targetCritic.loadParameters(a.manager, data);
            a.logAlpha = data.readDouble();
            if (!Double.isFinite(a.logAlpha)) {
                throw new IOException("log α is not a finite number: " + a.logAlpha);
            }
            // Loaded arrays replace the initialised ones without tracking gradients: without this a loaded
            // agent acts but cannot train (online learning, train --init).
            for (Block b : List.of(a.actor, a.critic)) {
                b.getParameters().values().forEach(p -> p.getArray().setRequiresGradient(true));
            }
            return a;
        } catch (MalformedModelException | RuntimeException | IOException e) {
            a.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    /** An agent of its own with the same networks and α (not the optimiser's state): a version frozen here. */
    public SacAgent copy() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            writeParameters(bytes);
            return readParameters(settings, new ByteArrayInputStream(bytes.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException("copying an agent in memory failed", e);
        }
    }

    /** How many native arrays the agent holds (its parameters, optimiser state and anything left attached). */
    int nativeArrays() {
        return manager.getManagedArrays().size();
    }

    @Override
    public void close() {
        manager.close();
    }
}
