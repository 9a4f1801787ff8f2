package io.gantry.studio.service;

import io.gantry.events.LayerType;
import io.gantry.events.ModelGraph;
import io.gantry.training.model.Datasets;
import io.gantry.training.model.ShapeInference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every export walks: a graph checked valid for its dataset, its inferred shapes, and its layers in topological
 * order, each with the identifier the generated code gives it and those of its inputs. The exports differ only in the
 * code they write for each step.
 *
 * @param output the identifier of the Output layer, which the generated forward returns
 */
record LayerWalk(Datasets.Info info, Map<String, int[]> shapes, List<Step> steps, String output) {

    /**
     * One layer: {@code inputShape} is the inferred shape (without the batch axis) of its first input, null for the
     * Input layer, which has none.
     */
    record Step(ModelGraph.Layer layer, LayerType type, String name, List<String> inputs, int[] inputShape) {
    }

    /** Throws {@link BadRequest} for a graph that is not valid on {@code dataset}. */
    static LayerWalk of(GraphValidation validation, ModelGraph graph, String dataset, Set<String> reserved) {
        validation.require(graph, dataset);
        Datasets.Info info = Datasets.info(dataset);
        Map<String, int[]> shapes = ShapeInference.infer(graph, info);
        Identifiers names = new Identifiers(reserved);
        List<Step> steps = new ArrayList<>();
        String output = null;
        for (ModelGraph.Layer l : graph.topologicalOrder()) {
            LayerType t = LayerType.named(l.type());
            String v = names.of(l.id());
            List<String> inputIds = graph.inputsOf(l.id());
            List<String> in = inputIds.stream().map(names::of).toList();
            steps.add(new Step(l, t, v, in, inputIds.isEmpty() ? null : shapes.get(inputIds.get(0))));
            if (t == LayerType.Output) {
                output = v;
            }
        }
        return new LayerWalk(info, shapes, List.copyOf(steps), output);
    }
}
