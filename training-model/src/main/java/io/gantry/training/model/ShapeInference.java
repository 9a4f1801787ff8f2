package io.gantry.training.model;

import io.gantry.events.LayerType;
import io.gantry.events.ModelGraph;
import io.gantry.events.TrainingSpec;
import io.gantry.events.Violation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of every layer's output, per sample (the batch axis left out), for a graph on a dataset; the first
 * mismatch is a {@link SpecException} naming the layer and both shapes. The rules are the ones {@code job-runner}'s DJL
 * blocks follow, so a graph accepted here builds there:
 * <ul>
 *   <li>Input: the dataset's sample shape (digits [1, 8, 8]; iris [4]; wine [13]; breast-cancer [30]);</li>
 *   <li>Linear and Output need a flat input [n] (put a Flatten before them) and give [units]; Output's units are the
 *       dataset's classes;</li>
 *   <li>Conv2d, MaxPool2d, AvgPool2d need [C, H, W]; each spatial side becomes floor((side + 2·padding − kernel) /
 *       stride) + 1, which must be at least 1; Conv2d gives {@code filters} channels;</li>
 *   <li>BatchNorm, Dropout and the activations keep the shape; Flatten gives [product];</li>
 *   <li>Add needs all inputs of one shape; Concat joins along the first axis and needs the others equal.</li>
 * </ul>
 */
public final class ShapeInference {

    private ShapeInference() {
    }

    /** The output shape of every layer by id, in topological order; throws on the first problem. */
    public static Map<String, int[]> infer(ModelGraph graph, Datasets.Info dataset) {
        Map<String, int[]> shapes = new LinkedHashMap<>();
        List<ModelGraph.Layer> layers = graph.layers();
        for (ModelGraph.Layer layer : graph.topologicalOrder()) {
            String field = "training.model.layers[" + layers.indexOf(layer) + "]";
            LayerType type = LayerType.named(layer.type());
            if (type == null) {
                throw new SpecException(field + ".type", "layer '" + layer.id() + "': unknown layer type '"
                        + layer.type() + "'; known: " + String.join(", ", LayerType.names()));
            }
            List<int[]> in = new ArrayList<>();
            for (String from : graph.inputsOf(layer.id())) {
                in.add(shapes.get(from));
            }
            shapes.put(layer.id(), output(field, layer, type, in, dataset));
        }
        return shapes;
    }

    /** Checks a spec as a whole: the contract's rules, the dataset, then the shapes. */
    public static Map<String, int[]> check(TrainingSpec spec) {
        List<Violation> found = validate(spec);
        if (!found.isEmpty()) {
            throw new SpecException(found.get(0).field(), found.get(0).reason());
        }
        return infer(spec.model(), Datasets.info(spec.dataset()));
    }

    private static List<Violation> validate(TrainingSpec spec) {
        // The contract's checks run inside event validation; wrap the spec in a minimal valid event to reuse them.
        io.gantry.events.JobSubmitted probe = new io.gantry.events.JobSubmitted(
                "00000000-0000-0000-0000-000000000000", io.gantry.events.GantryEvent.SCHEMA_VERSION,
                java.time.Instant.EPOCH, "probe", "probe", null, null, 1,
                new io.gantry.events.ResourceAmounts(0, 0, 0), null, null, null, null, true, spec);
        return probe.violations().stream().filter(x -> x.field().startsWith("training")).toList();
    }

    private static int[] output(String field, ModelGraph.Layer layer, LayerType type, List<int[]> in,
                                Datasets.Info dataset) {
        String id = "layer '" + layer.id() + "' (" + type + ")";
        switch (type) {
            case Input -> {
                Object declared = layer.params().get("shape");
                if (declared instanceof List<?> list) {
                    int[] want = list.stream().mapToInt(o -> ((Number) o).intValue()).toArray();
                    if (!Arrays.equals(want, dataset.inputShape())) {
                        throw new SpecException(field + ".params.shape", id + " declares shape " + fmt(want)
                                + " but dataset " + dataset.name() + " gives " + fmt(dataset.inputShape()));
                    }
                }
                return dataset.inputShape().clone();
            }
            case Linear, Output -> {
                int[] x = in.get(0);
                if (x.length != 1) {
                    throw new SpecException(field, id + " needs a flat input [features], got " + fmt(x)
                            + ": put a Flatten before it");
                }
                if (type == LayerType.Output) {
                    int units = layer.intParam("units", dataset.classes());
                    if (units != dataset.classes()) {
                        throw new SpecException(field + ".params.units", id + " has " + units + " units but dataset "
                                + dataset.name() + " has " + dataset.classes() + " classes");
                    }
                    return new int[]{dataset.classes()};
                }
                return new int[]{layer.intParam("units", 1)};
            }
            case Conv2d, MaxPool2d, AvgPool2d -> {
                int[] x = in.get(0);
                if (x.length != 3) {
                    throw new SpecException(field, id + " needs an image input [channels, height, width], got "
                            + fmt(x));
                }
                int k = layer.intParam("kernel", 1);
                int s = layer.intParam("stride", type == LayerType.Conv2d ? 1 : k);
                int p = layer.intParam("padding", 0);
                int h = (x[1] + 2 * p - k) / s + 1;
                int w = (x[2] + 2 * p - k) / s + 1;
                if (x[1] + 2 * p < k || x[2] + 2 * p < k || h < 1 || w < 1) {
                    throw new SpecException(field, id + ": kernel " + k + " with padding " + p
                            + " does not fit its input " + fmt(x));
                }
                if (type != LayerType.Conv2d && p > k / 2) {
                    throw new SpecException(field + ".params.padding", id + ": padding " + p
                            + " must be at most half the kernel (" + k + ")");
                }
                int c = type == LayerType.Conv2d ? layer.intParam("filters", 1) : x[0];
                return new int[]{c, h, w};
            }
            case Flatten -> {
                return new int[]{Arrays.stream(in.get(0)).reduce(1, (a, b) -> a * b)};
            }
            case Add -> {
                int[] first = in.get(0);
                for (int i = 1; i < in.size(); i++) {
                    if (!Arrays.equals(first, in.get(i))) {
                        throw new SpecException(field, id + " adds inputs of different shapes: " + fmt(first)
                                + " and " + fmt(in.get(i)));
                    }
                }
                return first.clone();
            }
            case Concat -> {
                int[] first = in.get(0);
                int axis0 = first[0];
                for (int i = 1; i < in.size(); i++) {
                    int[] other = in.get(i);
                    if (other.length != first.length
                            || !Arrays.equals(Arrays.copyOfRange(first, 1, first.length),
                            Arrays.copyOfRange(other, 1, other.length))) {
                        throw new SpecException(field, id + " joins along the first axis and needs the others equal: "
                                + fmt(first) + " and " + fmt(other));
                    }
                    axis0 += other[0];
                }
                int[] out = first.clone();
                out[0] = axis0;
                return out;
            }
            default -> {
                return in.get(0).clone(); // BatchNorm, Dropout, activations
            }
        }
    }

    public static String fmt(int[] shape) {
        return Arrays.toString(shape);
    }
}
