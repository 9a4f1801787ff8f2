package io.gantry.scheduling.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The measured profile of one Pollux application ({@code app-profiles/<app>/}): step and sync time per
 * placement and per-GPU batch ({@code placements.csv}, {@code scalability.csv}) and, per total batch
 * size, the training progress and gradient statistics per epoch ({@code validation-<batch>.csv}).
 *
 * <p>{@link #runSeconds} reproduces how Pollux's simulator ({@code simulator/simulator.py},
 * {@code Job.step}, in its Tiresias mode where replicas and batch size are fixed) trains a job to
 * completion. With no target metric configured (as in the artifact), a job completes when it
 * finishes epoch {@code max_epochs}; epoch {@code e} ends when progress reaches the smallest
 * {@code progress[e-1]} over the validation files. Progress accrues at the goodput
 * {@code gain / step_time}, where {@code gain = (var + sqr) / (var / scale + sqr)},
 * {@code scale = batch / init_batch}, and the gradient statistics are interpolated linearly between
 * the validated batch sizes around the job's batch. Pollux charges 30 s of re-scale delay on every
 * allocation; it is added once here.
 *
 * <p>Placement: the workloads were built for 16 nodes × 4 GPUs, so a job's throughput is read for
 * the packed placement on that cluster (4, 4, …, rest). Where that placement was measured, step time
 * is interpolated linearly over the per-GPU batch as Pollux does; where not, Pollux interpolates over
 * (nodes, replicas, per-GPU batch) with a Delaunay mesh — here the measured configuration with the
 * nearest (replicas, nodes) is used instead, interpolated over the per-GPU batch. Per-GPU batches
 * outside the measured range are clamped to its ends.
 */
public final class PolluxAppProfile {

    /** {@code max_epochs} and {@code max_local_bsz} overrides from Pollux's {@code applications.py}. */
    private static final Map<String, Integer> MAX_EPOCHS = Map.of("bert", 2, "cifar10", 100, "ncf", 10,
            "imagenet", 90, "deepspeech2", 80, "yolov3", 50);
    private static final Map<String, Integer> MAX_LOCAL_BSZ = Map.of("yolov3", 8);
    public static final double RESCALE_DELAY_S = 30;
    static final int POLLUX_GPUS_PER_NODE = 4;

    private record Validation(double[] progress, double[] gradSqr, double[] gradVar) {
    }

    private record Measured(int nodes, int replicas, double localBsz, double stepTime, double syncTime) {
    }

    private final String name;
    private final TreeMap<Integer, Validation> validation = new TreeMap<>();
    private final Map<String, List<Measured>> byPlacement = new TreeMap<>();
    private final List<Measured> allMeasured = new ArrayList<>();
    private final int maxEpochs;
    private final int initBatch;
    private final int maxBatch;
    private final double maxLocalBsz;
    private int measuredGpusPerNode;
    private int measuredGpus;

    private PolluxAppProfile(String name, int maxEpochs, int initBatch, int maxBatch, double maxLocalBsz) {
        this.name = name;
        this.maxEpochs = maxEpochs;
        this.initBatch = initBatch;
        this.maxBatch = maxBatch;
        this.maxLocalBsz = maxLocalBsz;
    }

    public static PolluxAppProfile load(Path appDir) {
        String name = appDir.getFileName().toString();
        TreeMap<Integer, Validation> val = new TreeMap<>();
        try (Stream<Path> files = Files.list(appDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("validation-\\d+\\.csv")).toList()) {
                int batch = Integer.parseInt(f.getFileName().toString().replaceAll("\\D", ""));
                List<CsvTable.Row> rows = CsvTable.read(f, "progress", "grad_sqr", "grad_var");
                double[] p = new double[rows.size()];
                double[] s = new double[rows.size()];
                double[] v = new double[rows.size()];
                for (int i = 0; i < rows.size(); i++) {
                    p[i] = rows.get(i).number("progress");
                    s[i] = rows.get(i).number("grad_sqr");
                    v[i] = rows.get(i).number("grad_var");
                }
                val.put(batch, new Validation(p, s, v));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + appDir, e);
        }
        if (val.isEmpty()) {
            throw new IllegalArgumentException(appDir + " has no validation-<batch>.csv");
        }
        List<Measured> placements = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (CsvTable.Row r : CsvTable.read(appDir.resolve("placements.csv"), "placement", "local_bsz", "step_time", "sync_time")) {
            String id = r.get("placement");
            int replicas = id.chars().map(c -> c - '0').sum();
            placements.add(new Measured(id.length(), replicas, r.number("local_bsz"), r.number("step_time"), r.number("sync_time")));
            ids.add(id);
        }
        double maxLocal = MAX_LOCAL_BSZ.containsKey(name) ? MAX_LOCAL_BSZ.get(name)
                : placements.stream().mapToDouble(Measured::localBsz).max().orElseThrow();
        int epochs = MAX_EPOCHS.getOrDefault(name, val.values().stream().mapToInt(x -> x.progress.length).min().orElseThrow());
        PolluxAppProfile app = new PolluxAppProfile(name, epochs, val.firstKey(), val.lastKey(), maxLocal);
        app.validation.putAll(val);
        for (int i = 0; i < placements.size(); i++) {
            app.byPlacement.computeIfAbsent(ids.get(i), k -> new ArrayList<>()).add(placements.get(i));
        }
        app.allMeasured.addAll(placements);
        for (String id : ids) {
            app.measuredGpusPerNode = Math.max(app.measuredGpusPerNode, id.chars().map(c -> c - '0').max().orElse(0));
        }
        for (CsvTable.Row r : CsvTable.read(appDir.resolve("scalability.csv"), "num_nodes", "num_replicas", "local_bsz", "step_time", "sync_time")) {
            Measured m = new Measured((int) r.number("num_nodes"), (int) r.number("num_replicas"), r.number("local_bsz"),
                    r.number("step_time"), r.number("sync_time"));
            app.allMeasured.add(m);
            app.measuredGpusPerNode = Math.max(app.measuredGpusPerNode, (m.replicas() + m.nodes() - 1) / m.nodes());
            app.measuredGpus = Math.max(app.measuredGpus, m.replicas());
        }
        return app;
    }

    public String name() {
        return name;
    }

    /** The most GPUs one measured configuration of the profile ran on (0 when it measured none across nodes). */
    public int measuredGpus() {
        return measuredGpus;
    }

    /**
     * Most GPUs that shared a node in any measured configuration (4 for every shipped profile: Pollux's cluster had
     * 4-GPU nodes). A placement with more on a node is timed from the nearest measured configuration, a cross-node
     * one ({@link #goodput}).
     */
    public int measuredGpusPerNode() {
        return measuredGpusPerNode;
    }

    /** Seconds to train to completion with {@code replicas} GPUs and total batch {@code batchSize}, as derived above. */
    public double runSeconds(int replicas, int batchSize) {
        return runSeconds(replicas, batchSize, maxEpochs);
    }

    /**
     * Seconds to train {@code epochs} epochs (in Pollux's units of statistical progress) with {@code replicas}
     * GPUs and total batch {@code batchSize}; {@link #runSeconds(int, int)} is this with {@link #maxEpochs()}.
     */
    public double runSeconds(int replicas, int batchSize, int epochs) {
        if (replicas < 1 || batchSize < 1 || epochs < 1) {
            throw new IllegalArgumentException(name + ": replicas, batch size and epochs must be positive");
        }
        int[] placement = packedPlacement(replicas);
        double seconds = RESCALE_DELAY_S;
        for (int epoch = 0; epoch < epochs; epoch++) {
            seconds += (progressAt(epoch + 1) - progressAt(epoch)) / goodput(placement, batchSize, epoch);
        }
        return seconds;
    }

    /**
     * Measured goodput, as Pollux's simulator trains a job: statistical progress per second on {@code placement}
     * (GPUs per node) at total batch {@code batchSize} during {@code epoch} (0-based), i.e. gain ÷ step time.
     */
    public double goodput(int[] placement, int batchSize, int epoch) {
        int replicas = java.util.Arrays.stream(placement).sum();
        BatchSplit split = split(replicas, batchSize);
        double scale = split.batch() / initBatch;
        double[] step = stepAndSync(placement, split.atomicBsz());
        double totalStep = step[0] + (step[0] - step[1]) * split.accumSteps();
        double[] grad = gradStats(split.batch(), epoch);
        double gain = (grad[1] + grad[0]) / (grad[1] / scale + grad[0]);
        return gain / totalStep;
    }

    /**
     * How a total batch is run on {@code replicas} GPUs: per-GPU ({@code atomicBsz}) batch, extra gradient
     * accumulation steps, and the batch actually used.
     */
    public record BatchSplit(double atomicBsz, int accumSteps, double batch) {
    }

    /** Pollux's {@code update_local_bsz} for a fixed batch size: gradient accumulation when a GPU's share is too big. */
    public BatchSplit split(int replicas, int batchSize) {
        double localBsz = Math.ceil(batchSize / (double) replicas - 1e-8);
        int accumSteps = (int) Math.ceil(localBsz / maxLocalBsz - 1e-8) - 1;
        if (replicas == 1 && batchSize > initBatch) {
            accumSteps = Math.max(1, accumSteps);
        }
        double atomicBsz = Math.ceil(localBsz / (accumSteps + 1) - 1e-8);
        int count = replicas * (accumSteps + 1);
        atomicBsz = Math.min(atomicBsz, Math.floor((double) maxBatch / count));
        return new BatchSplit(atomicBsz, accumSteps, replicas * atomicBsz * (accumSteps + 1));
    }

    /** Epochs a job trains in Pollux's artifact ({@code max_epochs}), which has no target metric. */
    public int maxEpochs() {
        return maxEpochs;
    }

    /** The smallest validated total batch; statistical efficiency is relative to it. */
    public int initBatch() {
        return initBatch;
    }

    /** The largest validated total batch. */
    public int maxBatch() {
        return maxBatch;
    }

    public double maxLocalBsz() {
        return maxLocalBsz;
    }

    /** Statistical progress at the end of {@code epoch} (0 before the first): the smallest over the validation runs. */
    public double progressAt(int epoch) {
        if (epoch == 0) {
            return 0;
        }
        double min = Double.POSITIVE_INFINITY;
        for (Validation v : validation.values()) {
            min = Math.min(min, v.progress[Math.min(epoch, v.progress.length) - 1]);
        }
        return min;
    }

    /** {grad_sqr, grad_var} during an epoch, interpolated between the validated batch sizes around {@code batch}. */
    private double[] gradStats(double batch, int epoch) {
        double b = Math.max(validation.firstKey(), Math.min(validation.lastKey(), batch));
        Map.Entry<Integer, Validation> lo = validation.floorEntry((int) Math.floor(b));
        Map.Entry<Integer, Validation> hi = validation.ceilingEntry((int) Math.ceil(b));
        double[] l = row(lo.getValue(), epoch);
        double[] h = row(hi.getValue(), epoch);
        if (lo.getKey().equals(hi.getKey())) {
            return l;
        }
        double w = (b - lo.getKey()) / (hi.getKey() - lo.getKey());
        return new double[] {l[0] + w * (h[0] - l[0]), l[1] + w * (h[1] - l[1])};
    }

    private static double[] row(Validation v, int epoch) {
        int i = Math.min(epoch, v.gradSqr.length - 1);
        return new double[] {v.gradSqr[i], v.gradVar[i]};
    }

    /** GPUs per node of a job that runs one task per GPU on {@code nodes}, in order of first appearance: {@code [a, a, b]} is {2, 1}. */
    public static int[] placementOf(List<String> nodes) {
        Map<String, Integer> count = new java.util.LinkedHashMap<>();
        for (String n : nodes) {
            count.merge(n, 1, Integer::sum);
        }
        return count.values().stream().mapToInt(Integer::intValue).toArray();
    }

    static int[] packedPlacement(int replicas) {
        int nodes = (replicas + POLLUX_GPUS_PER_NODE - 1) / POLLUX_GPUS_PER_NODE;
        int[] p = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            p[i] = Math.min(POLLUX_GPUS_PER_NODE, replicas - i * POLLUX_GPUS_PER_NODE);
        }
        return p;
    }

    /** {step_time, sync_time} in seconds for a placement and per-GPU batch. */
    double[] stepAndSync(int[] placement, double localBsz) {
        List<Measured> rows = byPlacement.get(canonicalId(placement));
        if (rows == null) {
            int nodes = placement.length;
            int replicas = java.util.Arrays.stream(placement).sum();
            Measured nearest = allMeasured.stream().min(Comparator
                    .comparingInt((Measured m) -> Math.abs(m.replicas() - replicas))
                    .thenComparingInt(m -> Math.abs(m.nodes() - Math.min(nodes, 16)))).orElseThrow();
            rows = allMeasured.stream().filter(m -> m.replicas() == nearest.replicas() && m.nodes() == nearest.nodes()).toList();
        }
        List<Measured> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingDouble(Measured::localBsz));
        Measured first = sorted.get(0);
        Measured last = sorted.get(sorted.size() - 1);
        if (localBsz <= first.localBsz()) {
            return new double[] {first.stepTime(), first.syncTime()};
        }
        if (localBsz >= last.localBsz()) {
            return new double[] {last.stepTime(), last.syncTime()};
        }
        for (int i = 1; i < sorted.size(); i++) {
            Measured a = sorted.get(i - 1);
            Measured b = sorted.get(i);
            if (localBsz <= b.localBsz()) {
                double w = b.localBsz() == a.localBsz() ? 0 : (localBsz - a.localBsz()) / (b.localBsz() - a.localBsz());
                return new double[] {a.stepTime() + w * (b.stepTime() - a.stepTime()), a.syncTime() + w * (b.syncTime() - a.syncTime())};
            }
        }
        return new double[] {last.stepTime(), last.syncTime()};
    }

    /** Pollux names a placement by its lexicographically smallest rotation, e.g. (4, 2) → "24". */
    static String canonicalId(int[] placement) {
        String best = null;
        for (int s = 0; s < placement.length; s++) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < placement.length; i++) {
                b.append(placement[(s + i) % placement.length]);
            }
            String id = b.toString();
            if (best == null || id.compareTo(best) < 0) {
                best = id;
            }
        }
        return best;
    }
}
