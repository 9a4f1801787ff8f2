package io.gantry.runner;

import io.gantry.events.ModelGraph;
import io.gantry.events.ModelGraph.Edge;
import io.gantry.events.ModelGraph.Layer;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.training.model.SharedDatasets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small specs for the tests, and where the datasets are. */
final class Specs {

    private Specs() {
    }

    static Path datasets() {
        return SharedDatasets.dir();
    }

    static ModelGraph chain(Layer... layers) {
        List<Edge> edges = new ArrayList<>();
        for (int i = 1; i < layers.length; i++) {
            edges.add(new Edge(layers[i - 1].id(), layers[i].id()));
        }
        return new ModelGraph(List.of(layers), edges);
    }

    /** A small CNN with batch norm and dropout, so every source of chance is in play. */
    static TrainingSpec digitsCnn(int epochs, TrainingTarget target, long seed) {
        return new TrainingSpec(chain(new Layer("in", "Input"),
                new Layer("conv1", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new Layer("bn1", "BatchNorm"), new Layer("relu1", "ReLU"),
                new Layer("pool1", "MaxPool2d", Map.of("kernel", 2)), new Layer("flat", "Flatten"),
                new Layer("drop", "Dropout", Map.of("rate", 0.2)), new Layer("fc", "Linear", Map.of("units", 32)),
                new Layer("act", "ReLU"), new Layer("out", "Output")),
                "digits", "adam", 0.005, 32, epochs, seed, target);
    }

    static TrainingSpec irisMlp(int epochs, String optimizer, TrainingTarget target) {
        return new TrainingSpec(chain(new Layer("in", "Input"), new Layer("fc1", "Linear", Map.of("units", 16)),
                new Layer("act", "Tanh"), new Layer("out", "Output")),
                "iris", optimizer, optimizer.equals("sgd") ? 0.05 : 0.01, 16, epochs, 5L, target);
    }
}
