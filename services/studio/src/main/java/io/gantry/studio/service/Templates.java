package io.gantry.studio.service;

import io.gantry.events.ModelGraph;
import io.gantry.events.ModelGraph.Edge;
import io.gantry.events.ModelGraph.Layer;
import io.gantry.training.model.RealJobSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The designer's starting points: an MLP, a LeNet-like CNN and a small residual net, each valid on its dataset. */
public final class Templates {

    public record Template(String name, String title, String dataset, ModelGraph graph) {
    }

    private Templates() {
    }

    public static List<Template> all() {
        return List.of(new Template("mlp", "MLP", "iris", RealJobSet.mlp(32)),
                new Template("lenet", "LeNet-like CNN", "digits", lenet()),
                new Template("residual", "Small residual net", "digits", residual()));
    }

    /** Two conv/pool blocks (6 then 16 filters, 3×3, padding 1), Flatten, Linear 64, Output: 1×8×8 → 16×2×2 → 10. */
    static ModelGraph lenet() {
        return chain(new Layer("in", "Input", Map.of("shape", List.of(1, 8, 8))),
                new Layer("conv1", "Conv2d", Map.of("filters", 6, "kernel", 3, "padding", 1)),
                new Layer("relu1", "ReLU"), new Layer("pool1", "MaxPool2d", Map.of("kernel", 2)),
                new Layer("conv2", "Conv2d", Map.of("filters", 16, "kernel", 3, "padding", 1)),
                new Layer("relu2", "ReLU"), new Layer("pool2", "MaxPool2d", Map.of("kernel", 2)),
                new Layer("flat", "Flatten"), new Layer("fc", "Linear", Map.of("units", 64)),
                new Layer("relu3", "ReLU"), new Layer("out", "Output"));
    }

    /** A stem conv, one residual block (conv-BN-ReLU-conv-BN plus the skip, then ReLU), pooling and the head. */
    static ModelGraph residual() {
        List<Layer> layers = List.of(new Layer("in", "Input"),
                new Layer("stem", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new Layer("stem_relu", "ReLU"),
                new Layer("res_conv1", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new Layer("res_bn1", "BatchNorm"), new Layer("res_relu", "ReLU"),
                new Layer("res_conv2", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new Layer("res_bn2", "BatchNorm"), new Layer("skip_add", "Add"), new Layer("res_out", "ReLU"),
                new Layer("pool", "MaxPool2d", Map.of("kernel", 2)), new Layer("flat", "Flatten"),
                new Layer("out", "Output"));
        List<Edge> edges = new ArrayList<>();
        String[] main = {"in", "stem", "stem_relu", "res_conv1", "res_bn1", "res_relu", "res_conv2", "res_bn2",
                "skip_add", "res_out", "pool", "flat", "out"};
        for (int i = 1; i < main.length; i++) {
            edges.add(new Edge(main[i - 1], main[i]));
        }
        edges.add(new Edge("stem_relu", "skip_add"));
        return new ModelGraph(layers, edges);
    }

    private static ModelGraph chain(Layer... layers) {
        List<Edge> edges = new ArrayList<>();
        for (int i = 1; i < layers.length; i++) {
            edges.add(new Edge(layers[i - 1].id(), layers[i].id()));
        }
        return new ModelGraph(List.of(layers), edges);
    }
}
