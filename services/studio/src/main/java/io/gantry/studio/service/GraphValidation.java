package io.gantry.studio.service;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gantry.events.ModelGraph;
import io.gantry.events.TrainingSpec;
import io.gantry.training.model.Datasets;
import io.gantry.training.model.GraphCheck;
import io.gantry.training.model.ShapeInference;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A graph checked against a dataset with the runner's own shape inference ({@link ShapeInference#analyse}): the page
 * shows each node's shape or error as the user edits, and runs and exports refuse a graph with any problem.
 */
@ApplicationScoped
public class GraphValidation {

    /** Field prefix of the graph in the studio's request bodies. */
    public static final String GRAPH = "graph";

    /** One node as the page shows it: its output shape per sample, or the error on it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record NodeView(List<Integer> shape, String error) {
    }

    public record Report(boolean valid, Map<String, NodeView> nodes, List<FieldError> errors) {
    }

    /** The dataset's description, or a {@link BadRequest} naming the {@code dataset} field and the known ones. */
    public static Datasets.Info dataset(String name) {
        if (name == null || name.isBlank()) {
            throw new BadRequest("dataset", "is required: one of " + String.join(", ", TrainingSpec.DATASETS));
        }
        if (!TrainingSpec.DATASETS.contains(name)) {
            throw new BadRequest("dataset", "unknown dataset '" + abbreviate(name) + "'; must be one of "
                    + String.join(", ", TrainingSpec.DATASETS));
        }
        return Datasets.info(name);
    }

    /** Every node's shape or error, and every root cause; an unknown dataset or a missing graph is a BadRequest. */
    public Report validate(ModelGraph graph, String dataset) {
        Datasets.Info info = dataset(dataset);
        if (graph == null) {
            throw new BadRequest(GRAPH, "is required: {\"layers\": [...], \"edges\": [...]}");
        }
        GraphCheck check = ShapeInference.analyse(graph, info, GRAPH);
        Map<String, NodeView> nodes = new LinkedHashMap<>();
        check.nodes().forEach((id, n) -> nodes.put(id, new NodeView(
                n.shape() == null ? null : Arrays.stream(n.shape()).boxed().toList(), n.error())));
        List<FieldError> errors = check.problems().stream()
                .map(p -> new FieldError(p.field(), p.nodeId(), p.reason())).toList();
        return new Report(check.valid(), nodes, errors);
    }

    /** As {@link #validate}, but a graph with any problem is a {@link BadRequest} carrying all of them. */
    public Report require(ModelGraph graph, String dataset) {
        Report r = validate(graph, dataset);
        if (!r.valid()) {
            throw new BadRequest(r.errors());
        }
        return r;
    }

    static String abbreviate(String s) {
        String clean = s.replaceAll("[^A-Za-z0-9_.@ -]", "?");
        return clean.length() > 64 ? clean.substring(0, 64) + "…" : clean;
    }
}
