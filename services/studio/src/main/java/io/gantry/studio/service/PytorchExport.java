package io.gantry.studio.service;

import io.gantry.events.LayerType;
import io.gantry.events.ModelGraph;
import io.gantry.training.model.Datasets;
import io.gantry.training.model.ShapeInference;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A valid graph as readable PyTorch source: an {@code nn.Module} with one submodule per layer with weights or an
 * operation, and a {@code forward} in topological order. Sizes the runner infers (a Linear's inputs, a Conv2d's
 * channels) are written out from the shape inference. DJL's BatchNorm momentum 0.9 is PyTorch's 0.1.
 */
@ApplicationScoped
public class PytorchExport {

    public static final String CLASS_NAME = "GantryModel";

    private static final Set<String> RESERVED = Set.of("False", "None", "True", "and", "as", "assert", "async", "await",
            "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
            "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
            "with", "yield", "self", "x", "torch", "nn", "forward", "training");

    private final GraphValidation validation;

    public PytorchExport(GraphValidation validation) {
        this.validation = validation;
    }

    public String export(ModelGraph graph, String dataset) {
        LayerWalk walk = LayerWalk.of(validation, graph, dataset, RESERVED);
        Datasets.Info info = walk.info();
        StringBuilder init = new StringBuilder();
        StringBuilder forward = new StringBuilder();
        for (LayerWalk.Step step : walk.steps()) {
            LayerType t = step.type();
            String v = step.name();
            List<String> in = step.inputs();
            String module = module(step.layer(), t, step.inputShape(), info.classes());
            if (module != null) {
                init.append("        self.").append(v).append(" = ").append(module).append('\n');
                forward.append("        ").append(v).append(" = self.").append(v).append('(').append(in.get(0))
                        .append(")\n");
            } else if (t == LayerType.Input) {
                forward.append("        ").append(v).append(" = x\n");
            } else if (t == LayerType.Flatten) {
                forward.append("        ").append(v).append(" = torch.flatten(").append(in.get(0)).append(", 1)\n");
            } else if (t == LayerType.Add) {
                forward.append("        ").append(v).append(" = ").append(String.join(" + ", in)).append('\n');
            } else {
                forward.append("        ").append(v).append(" = torch.cat([").append(String.join(", ", in))
                        .append("], dim=1)\n");
            }
        }
        return """
                # Exported by the Gantry studio: %d layers for dataset %s
                # (input %s per sample, %d classes). forward takes (batch, %s) and returns (batch, %d) logits.
                import torch
                from torch import nn


                class %s(nn.Module):
                    def __init__(self):
                        super().__init__()
                %s
                    def forward(self, x):
                %s        return %s


                if __name__ == "__main__":
                    model = %s()
                    print(model(torch.zeros(2, %s)).shape)
                """.formatted(graph.layers().size(), dataset, ShapeInference.fmt(info.inputShape()), info.classes(),
                join(info.inputShape()), info.classes(), CLASS_NAME, init.isEmpty() ? "        pass\n" : init, forward,
                walk.output(), CLASS_NAME, join(info.inputShape()));
    }

    /** The module of a layer; null for Input, Flatten, Add and Concat, which forward does with torch functions. */
    private static String module(ModelGraph.Layer l, LayerType t, int[] in, int classes) {
        int k = l.intParam("kernel", 1);
        int p = l.intParam("padding", 0);
        return switch (t) {
            case Input, Flatten, Add, Concat -> null;
            case Linear -> "nn.Linear(" + in[0] + ", " + l.intParam("units", 1) + ")";
            case Output -> "nn.Linear(" + in[0] + ", " + classes + ")";
            case Conv2d -> "nn.Conv2d(" + in[0] + ", " + l.intParam("filters", 1) + ", kernel_size=" + k + ", stride="
                    + l.intParam("stride", 1) + ", padding=" + p + ")";
            case MaxPool2d -> "nn.MaxPool2d(kernel_size=" + k + ", stride=" + l.intParam("stride", k) + ", padding="
                    + p + ")";
            case AvgPool2d -> "nn.AvgPool2d(kernel_size=" + k + ", stride=" + l.intParam("stride", k) + ", padding="
                    + p + ", count_include_pad=True)";
            case BatchNorm -> (in.length == 1 ? "nn.BatchNorm1d(" : "nn.BatchNorm2d(") + in[0]
                    + ", eps=1e-05, momentum=0.1)";
            case Dropout -> String.format(Locale.ROOT, "nn.Dropout(p=%s)", l.doubleParam("rate", 0.5));
            case ReLU -> "nn.ReLU()";
            case Tanh -> "nn.Tanh()";
            case Sigmoid -> "nn.Sigmoid()";
            case GELU -> "nn.GELU()";
        };
    }

    private static String join(int[] shape) {
        return String.join(", ", java.util.Arrays.stream(shape).mapToObj(String::valueOf).toList());
    }
}
