package io.gantry.runner;

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
import io.gantry.events.LayerType;
import io.gantry.events.ModelGraph;
import io.gantry.training.model.Datasets;
import io.gantry.training.model.ShapeInference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ModelGraph} as one DJL block: each layer with weights or an operation is a child block, Add and Concat are
 * done here; the forward pass walks the layers in topological order. Shapes were checked by {@link ShapeInference}
 * before it is built, and each child is initialised with the shape the inference gave its input, so what the runner
 * builds is what the inference describes. Public for the studio's export test, which checks that exported DJL code
 * builds this same block.
 */
public final class GraphBlock extends AbstractBlock {

    private final List<ModelGraph.Layer> order;
    private final Map<String, List<String>> inputs = new HashMap<>();
    private final Map<String, LayerType> types = new HashMap<>();
    private final Map<String, Block> blocks = new LinkedHashMap<>();
    private final Map<String, int[]> shapes;
    private final String outputId;

    public GraphBlock(ModelGraph graph, Datasets.Info dataset) {
        this.shapes = ShapeInference.infer(graph, dataset);
        this.order = graph.topologicalOrder();
        String out = null;
        for (ModelGraph.Layer l : order) {
            LayerType t = LayerType.named(l.type());
            types.put(l.id(), t);
            inputs.put(l.id(), graph.inputsOf(l.id()));
            Block b = blockFor(l, t, dataset.classes());
            if (b != null) {
                blocks.put(l.id(), addChildBlock(l.id(), b));
            }
            if (t == LayerType.Output) {
                out = l.id();
            }
        }
        this.outputId = out;
    }

    private static Block blockFor(ModelGraph.Layer l, LayerType t, int classes) {
        return switch (t) {
            case Input, Add, Concat -> null;
            case Linear -> Linear.builder().setUnits(l.intParam("units", 1)).build();
            case Output -> Linear.builder().setUnits(classes).build();
            case Conv2d -> {
                int k = l.intParam("kernel", 1);
                int s = l.intParam("stride", 1);
                int p = l.intParam("padding", 0);
                yield Conv2d.builder().setFilters(l.intParam("filters", 1)).setKernelShape(new Shape(k, k))
                        .optStride(new Shape(s, s)).optPadding(new Shape(p, p)).build();
            }
            case MaxPool2d, AvgPool2d -> {
                int k = l.intParam("kernel", 1);
                int s = l.intParam("stride", k);
                int p = l.intParam("padding", 0);
                yield t == LayerType.MaxPool2d
                        ? Pool.maxPool2dBlock(new Shape(k, k), new Shape(s, s), new Shape(p, p), false)
                        : Pool.avgPool2dBlock(new Shape(k, k), new Shape(s, s), new Shape(p, p), false, true);
            }
            case BatchNorm -> BatchNorm.builder().build();
            case Dropout -> Dropout.builder().optRate((float) l.doubleParam("rate", 0.5)).build();
            case ReLU -> Activation.reluBlock();
            case Tanh -> Activation.tanhBlock();
            case Sigmoid -> Activation.sigmoidBlock();
            case GELU -> Activation.geluBlock();
            case Flatten -> Blocks.batchFlattenBlock();
        };
    }

    @Override
    protected NDList forwardInternal(ParameterStore store, NDList in, boolean training, PairList<String, Object> params) {
        Map<String, NDArray> values = new HashMap<>();
        for (ModelGraph.Layer l : order) {
            LayerType t = types.get(l.id());
            NDArray out;
            if (t == LayerType.Input) {
                out = in.singletonOrThrow();
            } else {
                List<NDArray> xs = new ArrayList<>();
                inputs.get(l.id()).forEach(id -> xs.add(values.get(id)));
                if (t == LayerType.Add) {
                    out = xs.get(0);
                    for (int i = 1; i < xs.size(); i++) {
                        out = out.add(xs.get(i));
                    }
                } else if (t == LayerType.Concat) {
                    out = NDArrays.concat(new NDList(xs), 1);
                } else {
                    out = blocks.get(l.id()).forward(store, new NDList(xs.get(0)), training, params).singletonOrThrow();
                }
            }
            values.put(l.id(), out);
        }
        return new NDList(values.get(outputId));
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputShapes) {
        long batch = inputShapes[0].get(0);
        return new Shape[]{withBatch(batch, shapes.get(outputId))};
    }

    @Override
    protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
        long batch = inputShapes[0].get(0);
        for (ModelGraph.Layer l : order) {
            Block b = blocks.get(l.id());
            if (b != null) {
                String from = inputs.get(l.id()).get(0);
                b.initialize(manager, dataType, withBatch(batch, shapes.get(from)));
            }
        }
    }

    static Shape withBatch(long batch, int[] shape) {
        long[] dims = new long[shape.length + 1];
        dims[0] = batch;
        for (int i = 0; i < shape.length; i++) {
            dims[i + 1] = shape[i];
        }
        return new Shape(dims);
    }
}
