package io.gantry.training.model;

import io.gantry.events.LayerType;
import io.gantry.events.ModelGraph;
import io.gantry.events.TrainingSpec;
import io.gantry.events.Violation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of every layer's output, per sample (the batch axis left out), for a graph on a dataset.
 * {@link #analyse} reports every layer (its shape, or the reason it has none: a cycle, an unconnected input, a shape
 * mismatch naming both shapes, a parameter out of range; and a missing Output for the graph); {@link #infer} and
 * {@link #check} throw the first problem as a {@link SpecException}, which is what the runner needs. The rules are the ones {@code job-runner}'s DJL
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

    /** The field prefix of the model inside a {@link TrainingSpec} event body, as the contract's violations name it. */
    private static final String SPEC_MODEL = "training.model";
    private static final Pattern LAYER_FIELD = Pattern.compile("^training\\.model\\.layers\\[(\\d+)]");
    private static final Pattern EDGE_FIELD = Pattern.compile("^training\\.model\\.edges\\[(\\d+)]");

    private ShapeInference() {
    }

    /** The output shape of every layer by id, in topological order; throws the first problem. */
    public static Map<String, int[]> infer(ModelGraph graph, Datasets.Info dataset) {
        Walk w = new Walk(graph, dataset, SPEC_MODEL);
        if (!w.problems.isEmpty()) {
            GraphCheck.Problem first = w.problems.get(0);
            throw new SpecException(first.field(), first.reason());
        }
        return w.shapes;
    }

    /**
     * Every layer's shape or error, and every root cause, for {@code graph} on {@code dataset}; fields are named
     * under {@code field} (e.g. {@code graph} gives {@code graph.layers[2].params.kernel}).
     */
    public static GraphCheck analyse(ModelGraph graph, Datasets.Info dataset, String field) {
        Walk w = new Walk(graph, dataset, field);
        Map<String, GraphCheck.Node> nodes = new LinkedHashMap<>();
        for (ModelGraph.Layer l : graph.layers()) {
            if (l == null || l.id() == null || !ModelGraph.LAYER_ID.matcher(l.id()).matches() || nodes.containsKey(l.id())) {
                continue;
            }
            String error = w.errors.get(l.id());
            int[] shape = w.shapes.get(l.id());
            nodes.put(l.id(), error != null || shape == null
                    ? GraphCheck.Node.failed(error != null ? error : "layer '" + l.id() + "' has no shape")
                    : GraphCheck.Node.of(shape));
        }
        return new GraphCheck(nodes, w.problems);
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

    /**
     * One pass over a graph: the contract's rules for the model, each violation tied to its layer, then the shapes in
     * topological order. A layer whose input has an error gets an error of its own but is no root cause.
     */
    private static final class Walk {
        final Map<String, int[]> shapes = new LinkedHashMap<>();
        final Map<String, String> errors = new HashMap<>();
        final List<GraphCheck.Problem> problems = new ArrayList<>();
        private final ModelGraph graph;
        private final String field;

        Walk(ModelGraph graph, Datasets.Info dataset, String field) {
            this.graph = graph;
            this.field = field;
            contract(dataset);
            List<ModelGraph.Layer> order = graph.topologicalOrder();
            shapes(order, dataset);
            cycles(order);
        }

        private void contract(Datasets.Info dataset) {
            TrainingSpec probe = new TrainingSpec(graph, dataset.name(), "adam", 0.01, 1, 1, 0L, null);
            for (Violation v : validate(probe)) {
                if (!v.field().startsWith(SPEC_MODEL) || v.reason().startsWith("form a cycle")) {
                    continue; // cycles are reported per layer by cycles()
                }
                fail(field + v.field().substring(SPEC_MODEL.length()), nodeOf(v.field()), v.reason(), true);
            }
        }

        private void shapes(List<ModelGraph.Layer> order, Datasets.Info dataset) {
            List<ModelGraph.Layer> layers = graph.layers();
            for (ModelGraph.Layer layer : order) {
                LayerType type = LayerType.named(layer.type());
                if (errors.containsKey(layer.id()) || type == null) {
                    continue;
                }
                List<int[]> in = new ArrayList<>();
                for (String from : graph.inputsOf(layer.id())) {
                    if (shapes.get(from) == null) {
                        errors.put(layer.id(), "layer '" + layer.id() + "' has no shape: its input '" + from
                                + "' has an error");
                        break;
                    }
                    in.add(shapes.get(from));
                }
                String at = field + ".layers[" + layers.indexOf(layer) + "]";
                if (!errors.containsKey(layer.id()) && in.size() < type.minInputs()) {
                    fail(at, layer.id(), "layer '" + layer.id() + "' (" + type + ") has an unconnected input: it takes "
                            + type.minInputs() + ", has " + in.size(), true);
                }
                if (errors.containsKey(layer.id())) {
                    continue;
                }
                try {
                    shapes.put(layer.id(), output(at, layer, type, in, dataset));
                } catch (SpecException e) {
                    fail(e.field(), layer.id(), e.reason(), true);
                }
            }
        }

        /** Layers the topological order left out: on a cycle (a root cause) or fed by one. */
        private void cycles(List<ModelGraph.Layer> order) {
            Set<String> ordered = new HashSet<>();
            order.forEach(l -> ordered.add(l.id()));
            List<ModelGraph.Layer> layers = graph.layers();
            List<String> left = new ArrayList<>();
            for (ModelGraph.Layer l : layers) {
                if (l != null && l.id() != null && !ordered.contains(l.id())) {
                    left.add(l.id());
                }
            }
            Set<String> cyclic = graph.onCycle(left);
            for (String id : left) {
                int i = indexOf(id);
                if (cyclic.contains(id)) {
                    fail(field + ".layers[" + i + "]", id, "layer '" + id + "' is on a cycle (layers that cannot be "
                            + "ordered: " + String.join(", ", left) + ")", true);
                } else {
                    fail(field + ".layers[" + i + "]", id, "layer '" + id + "' has no shape: it is fed by a cycle",
                            false);
                }
            }
        }

        private void fail(String at, String nodeId, String reason, boolean rootCause) {
            if (nodeId != null) {
                errors.putIfAbsent(nodeId, reason);
            }
            if (rootCause) {
                problems.add(new GraphCheck.Problem(at, nodeId, reason));
            }
        }

        /** The layer a contract violation is about: the layer of {@code layers[i]}, the target of {@code edges[i]}. */
        private String nodeOf(String violationField) {
            Matcher layer = LAYER_FIELD.matcher(violationField);
            if (layer.find()) {
                ModelGraph.Layer l = graph.layers().get(Integer.parseInt(layer.group(1)));
                return l == null || l.id() == null || !ModelGraph.LAYER_ID.matcher(l.id()).matches() ? null : l.id();
            }
            Matcher edge = EDGE_FIELD.matcher(violationField);
            if (edge.find()) {
                ModelGraph.Edge e = graph.edges().get(Integer.parseInt(edge.group(1)));
                if (e == null) {
                    return null;
                }
                return indexOf(e.to()) >= 0 ? e.to() : indexOf(e.from()) >= 0 ? e.from() : null;
            }
            return null;
        }

        private int indexOf(String id) {
            List<ModelGraph.Layer> layers = graph.layers();
            for (int i = 0; i < layers.size(); i++) {
                if (layers.get(i) != null && id != null && id.equals(layers.get(i).id())) {
                    return i;
                }
            }
            return -1;
        }
    }

    private static int[] output(String field, ModelGraph.Layer layer, LayerType type, List<int[]> in,
                                Datasets.Info dataset) {
        String id = "layer '" + layer.id() + "' (" + type + ")";
        return switch (type) {
            case Input -> input(field, layer, id, dataset);
            case Linear, Output -> dense(field, layer, type, id, in.get(0), dataset);
            case Conv2d, MaxPool2d, AvgPool2d -> spatial(field, layer, type, id, in.get(0));
            case Flatten -> new int[]{Arrays.stream(in.get(0)).reduce(1, (a, b) -> a * b)};
            case Add -> add(field, id, in);
            case Concat -> concat(field, id, in);
            default -> in.get(0).clone(); // BatchNorm, Dropout, activations
        };
    }

    private static int[] input(String field, ModelGraph.Layer layer, String id, Datasets.Info dataset) {
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

    private static int[] dense(String field, ModelGraph.Layer layer, LayerType type, String id, int[] x,
                               Datasets.Info dataset) {
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

    private static int[] spatial(String field, ModelGraph.Layer layer, LayerType type, String id, int[] x) {
        if (x.length != 3) {
            throw new SpecException(field, id + " needs an image input [channels, height, width], got " + fmt(x));
        }
        int k = layer.intParam("kernel", 1);
        int s = layer.intParam("stride", type == LayerType.Conv2d ? 1 : k);
        int p = layer.intParam("padding", 0);
        int h = (x[1] + 2 * p - k) / s + 1;
        int w = (x[2] + 2 * p - k) / s + 1;
        if (x[1] + 2 * p < k || x[2] + 2 * p < k || h < 1 || w < 1) {
            throw new SpecException(field, id + ": kernel " + k + " with padding " + p + " does not fit its input "
                    + fmt(x));
        }
        if (type != LayerType.Conv2d && p > k / 2) {
            throw new SpecException(field + ".params.padding", id + ": padding " + p
                    + " must be at most half the kernel (" + k + ")");
        }
        int c = type == LayerType.Conv2d ? layer.intParam("filters", 1) : x[0];
        return new int[]{c, h, w};
    }

    private static int[] add(String field, String id, List<int[]> in) {
        int[] first = in.get(0);
        for (int i = 1; i < in.size(); i++) {
            if (!Arrays.equals(first, in.get(i))) {
                throw new SpecException(field, id + " adds inputs of different shapes: " + fmt(first) + " and "
                        + fmt(in.get(i)));
            }
        }
        return first.clone();
    }

    private static int[] concat(String field, String id, List<int[]> in) {
        int[] first = in.get(0);
        int axis0 = first[0];
        for (int i = 1; i < in.size(); i++) {
            int[] other = in.get(i);
            if (other.length != first.length || !Arrays.equals(Arrays.copyOfRange(first, 1, first.length),
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

    public static String fmt(int[] shape) {
        return Arrays.toString(shape);
    }
}
