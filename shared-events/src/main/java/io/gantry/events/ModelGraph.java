package io.gantry.events;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A model as a directed acyclic graph of layers, the format the studio produces and {@code job-runner} builds:
 * <pre>
 * {"layers": [{"id": "in",  "type": "Input"},
 *             {"id": "fc1", "type": "Linear", "params": {"units": 32}},
 *             {"id": "act", "type": "ReLU"},
 *             {"id": "out", "type": "Output"}],
 *  "edges":  [{"from": "in", "to": "fc1"}, {"from": "fc1", "to": "act"}, {"from": "act", "to": "out"}]}
 * </pre>
 * Rules (each broken one is a {@link Violation} naming the layer): layer ids are unique, 1-64 of letters, digits,
 * {@code _ -  .}; every type is a {@link LayerType} with its parameters in bounds (numbers; unknown parameters are
 * refused); exactly one {@code Input} and one {@code Output}; every edge joins two declared layers; the graph has no
 * cycle and every layer lies on a path from the Input to the Output; each layer has the number of inputs its type
 * takes (Add and Concat two or more, in the order of their edges; Input none; the others one). Shapes are inferred
 * by the {@code training-model} module against the dataset.
 */
public record ModelGraph(List<Layer> layers, List<Edge> edges) {

    public static final Pattern LAYER_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** One layer; {@code params} holds numbers (whole numbers for counts), may be empty or absent. */
    public record Layer(String id, String type, Map<String, Object> params) {
        public Layer {
            params = params == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(params));
        }

        public Layer(String id, String type) {
            this(id, type, Map.of());
        }

        /** A whole-number parameter, or {@code fallback} when absent. */
        public int intParam(String name, int fallback) {
            Object v = params.get(name);
            return v instanceof Number n ? n.intValue() : fallback;
        }

        public double doubleParam(String name, double fallback) {
            Object v = params.get(name);
            return v instanceof Number n ? n.doubleValue() : fallback;
        }
    }

    /** Output of {@code from} feeds {@code to}. */
    public record Edge(String from, String to) {
    }

    public ModelGraph {
        layers = layers == null ? List.of() : List.copyOf(layers);
        edges = edges == null ? List.of() : List.copyOf(edges);
    }

    /** The layers feeding {@code id}, in edge order. */
    public List<String> inputsOf(String id) {
        List<String> in = new ArrayList<>();
        for (Edge e : edges) {
            if (id.equals(e.to())) {
                in.add(e.from());
            }
        }
        return in;
    }

    /** The layers in an order where every layer comes after its inputs (Kahn, ties in declaration order). */
    public List<Layer> topologicalOrder() {
        Map<String, Layer> byId = new LinkedHashMap<>();
        layers.forEach(l -> byId.putIfAbsent(l.id(), l));
        Map<String, Integer> indeg = new HashMap<>();
        byId.keySet().forEach(id -> indeg.put(id, 0));
        for (Edge e : edges) {
            indeg.computeIfPresent(e.to(), (k, v) -> v + 1);
        }
        Deque<String> ready = new ArrayDeque<>();
        byId.keySet().stream().filter(id -> indeg.get(id) == 0).forEach(ready::add);
        List<Layer> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            String id = ready.poll();
            order.add(byId.get(id));
            for (Edge e : edges) {
                if (id.equals(e.from()) && indeg.containsKey(e.to()) && indeg.merge(e.to(), -1, Integer::sum) == 0) {
                    ready.add(e.to());
                }
            }
        }
        return order;
    }

    void check(String field, Violations v) {
        if (layers.isEmpty()) {
            v.add(field + ".layers", "must not be empty");
            return;
        }
        v.atMost(field + ".layers", layers, Limits.MAX_TRAINING_LAYERS);
        v.atMost(field + ".edges", edges, Limits.MAX_TRAINING_EDGES);
        if (layers.size() > Limits.MAX_TRAINING_LAYERS || edges.size() > Limits.MAX_TRAINING_EDGES) {
            return;
        }
        Map<String, LayerType> types = checkLayers(field, v);
        // The graph-wide rules need every layer and edge well formed: on a broken one they would only add noise.
        if (!checkEdges(field, types.keySet(), v) || types.size() != layers.size()) {
            return;
        }
        checkInputCounts(field, types, v);
        if (checkAcyclic(field, v)) {
            checkConnected(field, types, v);
        }
    }

    /** Checks each layer on its own and the Input/Output counts; returns the type of every layer with a valid id. */
    private Map<String, LayerType> checkLayers(String field, Violations v) {
        Map<String, LayerType> types = new HashMap<>();
        int inputs = 0;
        int outputs = 0;
        for (int i = 0; i < layers.size(); i++) {
            Layer l = layers.get(i);
            String f = field + ".layers[" + i + "]";
            if (l == null) {
                v.add(f, "is required");
                continue;
            }
            if (l.id() == null || !LAYER_ID.matcher(l.id()).matches()) {
                v.add(f + ".id", "must be 1-64 of letters, digits, '_', '.', '-', starting with a letter or digit");
                continue;
            }
            if (types.containsKey(l.id())) {
                v.add(f + ".id", "layer '" + l.id() + "' is declared twice");
                continue;
            }
            LayerType t = LayerType.named(l.type());
            types.put(l.id(), t);
            if (t == null) {
                v.add(f + ".type", "layer '" + l.id() + "': unknown layer type '" + abbreviate(l.type()) + "'; known: "
                        + String.join(", ", LayerType.names()));
                continue;
            }
            inputs += t == LayerType.Input ? 1 : 0;
            outputs += t == LayerType.Output ? 1 : 0;
            checkParams(f + ".params", l, t, v);
        }
        if (inputs != 1) {
            v.add(field + ".layers", "must hold exactly one Input layer, has " + inputs);
        }
        if (outputs != 1) {
            v.add(field + ".layers", "must hold exactly one Output layer, has " + outputs);
        }
        return types;
    }

    /** Every edge joins two declared layers, once; false when one does not. */
    private boolean checkEdges(String field, Set<String> declared, Violations v) {
        boolean edgesOk = true;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < edges.size(); i++) {
            Edge e = edges.get(i);
            String f = field + ".edges[" + i + "]";
            if (e == null) {
                v.add(f, "is required");
                edgesOk = false;
                continue;
            }
            if (!declared.contains(e.from())) {
                v.add(f + ".from", "names no declared layer: '" + abbreviate(e.from()) + "'");
                edgesOk = false;
            }
            if (!declared.contains(e.to())) {
                v.add(f + ".to", "names no declared layer: '" + abbreviate(e.to()) + "'");
                edgesOk = false;
            }
            if (!seen.add(e.from() + "\u0000" + e.to())) {
                v.add(f, "repeats the edge " + e.from() + " -> " + e.to());
                edgesOk = false;
            }
        }
        return edgesOk;
    }

    /** Each layer has as many inputs as its type takes, and the Output feeds nothing. */
    private void checkInputCounts(String field, Map<String, LayerType> types, Violations v) {
        for (int i = 0; i < layers.size(); i++) {
            Layer l = layers.get(i);
            LayerType t = types.get(l.id());
            if (t == null) {
                continue;
            }
            int n = inputsOf(l.id()).size();
            if (n < t.minInputs() || n > t.maxInputs()) {
                String want = t.minInputs() == t.maxInputs() ? String.valueOf(t.minInputs()) : "at least " + t.minInputs();
                v.add(field + ".layers[" + i + "]", "layer '" + l.id() + "' (" + t + ") takes " + want
                        + " input(s), has " + n);
            }
            if (t == LayerType.Output && edges.stream().anyMatch(e -> e.from().equals(l.id()))) {
                v.add(field + ".layers[" + i + "]", "layer '" + l.id() + "' (Output) must not feed another layer");
            }
        }
    }

    /** False, with the layers on a cycle named, when the edges form one. */
    private boolean checkAcyclic(String field, Violations v) {
        List<Layer> order = topologicalOrder();
        if (order.size() == layers.size()) {
            return true;
        }
        Set<String> sorted = new HashSet<>();
        order.forEach(l -> sorted.add(l.id()));
        // Kahn's sort also leaves out every layer downstream of a cycle; name only the layers on one.
        List<String> left = layers.stream().map(Layer::id).filter(id -> !sorted.contains(id)).toList();
        Set<String> onCycle = onCycle(left);
        List<String> cyclic = left.stream().filter(onCycle::contains).toList();
        v.add(field + ".edges", "form a cycle through layer(s) " + String.join(", ", cyclic));
        return false;
    }

    /**
     * The layers of {@code ids} from which a path of edges leads back to themselves; null edges (a graph not yet
     * checked) are skipped. One adjacency map serves every walk.
     */
    public Set<String> onCycle(Collection<String> ids) {
        Map<String, List<String>> next = adjacency(true);
        Set<String> cyclic = new HashSet<>();
        for (String id : ids) {
            if (reach(next, next.getOrDefault(id, List.of())).contains(id)) {
                cyclic.add(id);
            }
        }
        return cyclic;
    }

    /** Every layer must be reachable from the Input and reach the Output: a dangling layer is a design mistake. */
    private void checkConnected(String field, Map<String, LayerType> types, Violations v) {
        String in = layers.stream().filter(l -> types.get(l.id()) == LayerType.Input).map(Layer::id).findFirst().orElse(null);
        String out = layers.stream().filter(l -> types.get(l.id()) == LayerType.Output).map(Layer::id).findFirst().orElse(null);
        if (in == null || out == null) {
            return;
        }
        Set<String> fromIn = reach(adjacency(true), List.of(in));
        Set<String> toOut = reach(adjacency(false), List.of(out));
        for (int i = 0; i < layers.size(); i++) {
            String id = layers.get(i).id();
            if (!fromIn.contains(id)) {
                v.add(field + ".layers[" + i + "]", "layer '" + id + "' is not reachable from the Input layer '" + in + "'");
            } else if (!toOut.contains(id)) {
                v.add(field + ".layers[" + i + "]", "layer '" + id + "' does not lead to the Output layer '" + out + "'");
            }
        }
    }

    /** Each layer's successors ({@code forward}) or predecessors; null edges and ends are skipped. */
    private Map<String, List<String>> adjacency(boolean forward) {
        Map<String, List<String>> next = new HashMap<>();
        for (Edge e : edges) {
            if (e != null && e.from() != null && e.to() != null) {
                String layer = forward ? e.from() : e.to();
                next.computeIfAbsent(layer, k -> new ArrayList<>()).add(forward ? e.to() : e.from());
            }
        }
        return next;
    }

    /**
     * The layers {@code starts} and every layer reached from them along {@code next}. Each layer's neighbours are
     * looked up, not searched for among all edges, so that each walk ({@link #onCycle} takes one per layer left out
     * of a cycle's sort) stays linear in the graph even at its largest (256 layers, 1,024 edges).
     */
    private static Set<String> reach(Map<String, List<String>> next, List<String> starts) {
        Set<String> seen = new HashSet<>(starts);
        Deque<String> todo = new ArrayDeque<>(starts);
        while (!todo.isEmpty()) {
            for (String n : next.getOrDefault(todo.poll(), List.of())) {
                if (seen.add(n)) {
                    todo.add(n);
                }
            }
        }
        return seen;
    }

    private static void checkParams(String field, Layer l, LayerType t, Violations v) {
        for (Map.Entry<String, Object> p : l.params().entrySet()) {
            if (t == LayerType.Input && p.getKey().equals("shape")) {
                if (!(p.getValue() instanceof List<?> list) || list.isEmpty() || list.size() > 4
                        || !list.stream().allMatch(x -> x instanceof Integer i && i >= 1 && i <= 4096)) {
                    v.add(field + ".shape", "layer '" + l.id() + "': must be a list of 1-4 whole numbers from 1 to 4096");
                }
                continue;
            }
            LayerType.Param spec = t.params().get(p.getKey());
            if (spec == null) {
                v.add(field + "." + abbreviate(p.getKey()), "layer '" + l.id() + "' (" + t + ") takes no parameter '"
                        + abbreviate(p.getKey()) + "'" + (t.params().isEmpty() ? "" : "; it takes "
                        + String.join(", ", new TreeMap<>(t.params()).keySet())));
                continue;
            }
            Object value = p.getValue();
            if (!(value instanceof Number n) || (spec.integer() && !(value instanceof Integer || value instanceof Long))) {
                v.add(field + "." + p.getKey(), "layer '" + l.id() + "': must be " + (spec.integer() ? "a whole number" : "a number"));
                continue;
            }
            double d = n.doubleValue();
            if (!(d >= spec.min() && d <= spec.max())) {
                v.add(field + "." + p.getKey(), "layer '" + l.id() + "': must be between " + num(spec.min()) + " and "
                        + num(spec.max()) + ", was " + value);
            }
        }
        for (LayerType.Param spec : t.params().values()) {
            if (spec.required() && !l.params().containsKey(spec.name())) {
                v.add(field + "." + spec.name(), "layer '" + l.id() + "' (" + t + ") requires it");
            }
        }
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "null";
        }
        String clean = s.replaceAll("[^A-Za-z0-9_.@ -]", "?");
        return clean.length() > 64 ? clean.substring(0, 64) + "…" : clean;
    }
}
