package io.gantry.training.model;

import io.gantry.events.ModelGraph;
import io.gantry.events.ModelGraph.Edge;
import io.gantry.events.ModelGraph.Layer;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The documented set of real jobs {@code ./gantry up --real-jobs N} mixes into a replay (and the system tests run):
 * job i is kind {@code i mod 4} — a small CNN on digits, then MLPs on iris, wine and breast cancer — with its size
 * (hidden units or filters), user and seed varied by i. Each stops at its target test accuracy: digits 0.95, iris
 * 0.9, wine 0.9, breast cancer 0.93.
 */
public final class RealJobSet {

    /** One real job: who submits it, what its pod requests, what it trains. */
    public record RealJob(String name, String user, ResourceAmounts perTask, TrainingSpec spec) {
        public double target() {
            return spec.target().value();
        }
    }

    public static final Map<String, Double> TARGETS = Map.of("digits", 0.95, "iris", 0.9, "wine", 0.9,
            "breast-cancer", 0.93);
    private static final String[] USERS = {"ada", "grace", "alan", "edsger", "barbara"};

    private RealJobSet() {
    }

    /** The first {@code n} jobs of the set; {@code seedBase} + i is job i's seed. */
    public static List<RealJob> first(int n, long seedBase) {
        List<RealJob> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(job(i, seedBase + i));
        }
        return jobs;
    }

    public static RealJob job(int i, long seed) {
        int size = i / 4 % 3; // 0, 1, 2: small, medium, large of each kind
        String user = USERS[i % USERS.length];
        return switch (i % 4) {
            case 0 -> new RealJob("digits-cnn-" + (8 << size), user, new ResourceAmounts(0, 2000, 1024),
                    spec(cnn(8 << size), "digits", 0.005, 32, 20, seed));
            case 1 -> new RealJob("iris-mlp-" + (16 << size), user, new ResourceAmounts(0, 1000, 768),
                    spec(mlp(16 << size), "iris", 0.01, 16, 150, seed));
            case 2 -> new RealJob("wine-mlp-" + (16 << size), user, new ResourceAmounts(0, 1000, 768),
                    spec(mlp(16 << size), "wine", 0.01, 16, 100, seed));
            default -> new RealJob("breast-cancer-mlp-" + (32 << size), user, new ResourceAmounts(0, 1000, 768),
                    spec(mlp(32 << size), "breast-cancer", 0.005, 32, 100, seed));
        };
    }

    private static TrainingSpec spec(ModelGraph g, String dataset, double lr, int batch, int epochs, long seed) {
        return new TrainingSpec(g, dataset, "adam", lr, batch, epochs, seed,
                new TrainingTarget(TrainingTarget.TEST_ACCURACY, TARGETS.get(dataset)));
    }

    /** Input, Linear(hidden), ReLU, Dropout 0.1, Linear(hidden / 2), ReLU, Output. */
    public static ModelGraph mlp(int hidden) {
        return chain(new Layer("in", "Input"), new Layer("fc1", "Linear", Map.of("units", hidden)),
                new Layer("act1", "ReLU"), new Layer("drop", "Dropout", Map.of("rate", 0.1)),
                new Layer("fc2", "Linear", Map.of("units", Math.max(4, hidden / 2))), new Layer("act2", "ReLU"),
                new Layer("out", "Output"));
    }

    /** Conv 3×3 (filters, padding 1), BatchNorm, ReLU, MaxPool 2, Flatten, Dropout 0.2, Linear 64, ReLU, Output. */
    public static ModelGraph cnn(int filters) {
        return chain(new Layer("in", "Input", Map.of("shape", List.of(1, 8, 8))),
                new Layer("conv1", "Conv2d", Map.of("filters", filters, "kernel", 3, "padding", 1)),
                new Layer("bn1", "BatchNorm"), new Layer("relu1", "ReLU"),
                new Layer("pool1", "MaxPool2d", Map.of("kernel", 2)), new Layer("flat", "Flatten"),
                new Layer("drop", "Dropout", Map.of("rate", 0.2)), new Layer("fc", "Linear", Map.of("units", 64)),
                new Layer("act", "ReLU"), new Layer("out", "Output"));
    }

    private static ModelGraph chain(Layer... layers) {
        List<Edge> edges = new ArrayList<>();
        for (int i = 1; i < layers.length; i++) {
            edges.add(new Edge(layers[i - 1].id(), layers[i].id()));
        }
        return new ModelGraph(List.of(layers), edges);
    }
}
