package io.gantry.studio.service;

import io.gantry.events.LayerType;
import io.gantry.events.ModelGraph;
import io.gantry.training.model.Datasets;
import io.gantry.training.model.ShapeInference;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A valid graph as readable DJL Java source: one class whose static {@code build()} gives a {@code Block} equal to the
 * runner's ({@code job-runner}'s GraphBlock): the same child blocks with the same names in the same order (so the
 * same parameter names and shapes), the same forward pass (layers in topological order, Add as a sum, Concat along
 * axis 1) and each child initialised with the input shape the shape inference gives it.
 */
@ApplicationScoped
public class DjlExport {

    public static final String CLASS_NAME = "GantryModel";

    private static final Set<String> RESERVED = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final",
            "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long",
            "native", "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile",
            "while", "var", "record", "yield", "true", "false", "null", "store", "inputs", "training", "params",
            "manager", "dataType", "inputShapes", "batch", "build");

    private final GraphValidation validation;

    public DjlExport(GraphValidation validation) {
        this.validation = validation;
    }

    public String export(ModelGraph graph, String dataset) {
        LayerWalk walk = LayerWalk.of(validation, graph, dataset, RESERVED);
        Datasets.Info info = walk.info();
        StringBuilder fields = new StringBuilder();
        StringBuilder children = new StringBuilder();
        StringBuilder forward = new StringBuilder();
        StringBuilder init = new StringBuilder();
        for (LayerWalk.Step step : walk.steps()) {
            LayerType t = step.type();
            String v = step.name();
            List<String> in = step.inputs();
            String block = block(step.layer(), t, info.classes());
            if (block != null) {
                fields.append("    private final Block ").append(v).append("Block;\n");
                children.append("        ").append(v).append("Block = addChildBlock(\"").append(step.layer().id())
                        .append("\", ").append(block).append(");\n");
                forward.append("        NDArray ").append(v).append(" = ").append(v)
                        .append("Block.forward(store, new NDList(").append(in.get(0))
                        .append("), training, params).singletonOrThrow();\n");
                init.append("        ").append(v).append("Block.initialize(manager, dataType, new Shape(batch")
                        .append(dims(step.inputShape())).append("));\n");
            } else if (t == LayerType.Input) {
                forward.append("        NDArray ").append(v).append(" = inputs.singletonOrThrow();\n");
            } else if (t == LayerType.Add) {
                forward.append("        NDArray ").append(v).append(" = ").append(String.join(".add(", in))
                        .append(")".repeat(in.size() - 1)).append(";\n");
            } else {
                forward.append("        NDArray ").append(v).append(" = NDArrays.concat(new NDList(")
                        .append(String.join(", ", in)).append("), 1);\n");
            }
        }
        return source(graph, dataset, info, fields, children, forward, init, walk.output(), walk.shapes());
    }

    private static String source(ModelGraph graph, String dataset, Datasets.Info info, StringBuilder fields,
                                 StringBuilder children, StringBuilder forward, StringBuilder init, String output,
                                 Map<String, int[]> shapes) {
        String outId = graph.layers().stream().filter(l -> "Output".equals(l.type())).findFirst().orElseThrow().id();
        return """
                import ai.djl.ndarray.NDArray;
                import ai.djl.ndarray.NDArrays;
                import ai.djl.ndarray.NDList;
                import ai.djl.ndarray.NDManager;
                import ai.djl.ndarray.types.DataType;
                import ai.djl.ndarray.types.Shape;
                import ai.djl.nn.AbstractBlock;
                import ai.djl.nn.Activation;
                import ai.djl.nn.Block;
                import ai.djl.nn.Blocks;
                import ai.djl.nn.convolutional.Conv2d;
                import ai.djl.nn.core.Linear;
                import ai.djl.nn.norm.BatchNorm;
                import ai.djl.nn.norm.Dropout;
                import ai.djl.nn.pooling.Pool;
                import ai.djl.training.ParameterStore;
                import ai.djl.util.PairList;

                /**
                 * Exported by the Gantry studio: %d layers for dataset %s (input %s per sample, %d classes).
                 * Initialise with new Shape(batch%s); the output is (batch, %d) logits.
                 */
                public final class %s extends AbstractBlock {

                %s
                    public static Block build() {
                        return new %s();
                    }

                    private %s() {
                %s    }

                    @Override
                    protected NDList forwardInternal(ParameterStore store, NDList inputs, boolean training,
                                                     PairList<String, Object> params) {
                %s        return new NDList(%s);
                    }

                    @Override
                    public Shape[] getOutputShapes(Shape[] inputShapes) {
                        return new Shape[]{new Shape(inputShapes[0].get(0)%s)};
                    }

                    @Override
                    protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
                        long batch = inputShapes[0].get(0);
                %s    }
                }
                """.formatted(graph.layers().size(), dataset, ShapeInference.fmt(info.inputShape()), info.classes(),
                dims(info.inputShape()), info.classes(), CLASS_NAME, fields, CLASS_NAME, CLASS_NAME, children, forward,
                output, dims(shapes.get(outId)), init);
    }

    /** The DJL builder of a layer with weights or an operation; null for Input, Add and Concat (done in forward). */
    private static String block(ModelGraph.Layer l, LayerType t, int classes) {
        int k = l.intParam("kernel", 1);
        int p = l.intParam("padding", 0);
        return switch (t) {
            case Input, Add, Concat -> null;
            case Linear -> "Linear.builder().setUnits(" + l.intParam("units", 1) + ").build()";
            case Output -> "Linear.builder().setUnits(" + classes + ").build()";
            case Conv2d -> "Conv2d.builder().setFilters(" + l.intParam("filters", 1) + ").setKernelShape(" + square(k)
                    + ").optStride(" + square(l.intParam("stride", 1)) + ").optPadding(" + square(p) + ").build()";
            case MaxPool2d -> "Pool.maxPool2dBlock(" + square(k) + ", " + square(l.intParam("stride", k)) + ", "
                    + square(p) + ", false)";
            case AvgPool2d -> "Pool.avgPool2dBlock(" + square(k) + ", " + square(l.intParam("stride", k)) + ", "
                    + square(p) + ", false, true)";
            case BatchNorm -> "BatchNorm.builder().build()";
            case Dropout -> "Dropout.builder().optRate(" + (float) l.doubleParam("rate", 0.5) + "f).build()";
            case ReLU -> "Activation.reluBlock()";
            case Tanh -> "Activation.tanhBlock()";
            case Sigmoid -> "Activation.sigmoidBlock()";
            case GELU -> "Activation.geluBlock()";
            case Flatten -> "Blocks.batchFlattenBlock()";
        };
    }

    private static String square(int n) {
        return "new Shape(" + n + ", " + n + ")";
    }

    /** ", 1, 8, 8" for [1, 8, 8]: the dimensions after the batch axis. */
    private static String dims(int[] shape) {
        return java.util.Arrays.stream(shape).mapToObj(d -> ", " + d).collect(Collectors.joining());
    }
}
