package io.gantry.studio.service;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.gantry.events.LayerType;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.studio.config.StudioConfig;
import io.gantry.training.model.Datasets;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * What the designer offers: the runner's layers with their parameters and bounds (from {@link LayerType}, the one
 * source the contract checks too), the datasets with their real input shapes (from {@link Datasets}), the templates,
 * optimizers and target metrics. Built once: none of it changes while the service runs.
 */
@ApplicationScoped
public class Catalog {

    private static final Logger LOG = Logger.getLogger(Catalog.class);

    /**
     * Where the page starts a parameter: for an optional one the value the runner uses when it is absent (stride 1,
     * pool stride = kernel is shown as absent, padding 0), for a required one a common first choice.
     */
    private static final Map<String, Number> STARTING_VALUES = Map.of("units", 32, "filters", 8, "kernel", 3,
            "padding", 0, "rate", 0.2);

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ParamView(String name, String kind, boolean required,
                            @JsonProperty("default") Number defaultValue, double min, double max) {
    }

    public record Inputs(int min, int max) {
    }

    public record LayerView(String type, Inputs inputs, List<ParamView> params) {
    }

    public record DatasetView(String name, List<Integer> inputShape, int classes, Integer samples) {
    }

    public record View(List<LayerView> layers, List<DatasetView> datasets, List<Templates.Template> templates,
                       List<String> optimizers, List<String> metrics) {
    }

    private final View view;

    public Catalog(StudioConfig config) {
        List<LayerView> layers = Arrays.stream(LayerType.values()).map(Catalog::layer).toList();
        List<DatasetView> datasets = new ArrayList<>();
        for (Datasets.Info d : Datasets.ALL) {
            datasets.add(new DatasetView(d.name(), d.shape(), d.classes(), samples(Path.of(config.datasetsDir()), d)));
        }
        view = new View(layers, List.copyOf(datasets), Templates.all(), TrainingSpec.OPTIMIZERS, TrainingTarget.METRICS);
    }

    public View view() {
        return view;
    }

    private static LayerView layer(LayerType t) {
        List<ParamView> params = t.params().values().stream().sorted(Comparator.comparing(LayerType.Param::name))
                .map(p -> new ParamView(p.name(), p.integer() ? "int" : "real", p.required(),
                        startingValue(t, p), p.min(), p.max()))
                .toList();
        return new LayerView(t.name(), new Inputs(t.minInputs(), t.maxInputs()), params);
    }

    /** Output's units must equal the dataset's classes, and a pool's stride defaults to its kernel: both start absent. */
    private static Number startingValue(LayerType t, LayerType.Param p) {
        return t == LayerType.Output || p.name().equals("stride") ? null : STARTING_VALUES.get(p.name());
    }

    /** The dataset's rows, or null (logged) when the shipped files are not where the config says. */
    private static Integer samples(Path dir, Datasets.Info d) {
        if (!Files.isRegularFile(dir.resolve(d.file()))) {
            LOG.warnf("dataset %s not found under %s: the catalogue shows no sample count", d.name(), dir);
            return null;
        }
        Datasets.Loaded loaded = Datasets.load(dir, d.name());
        return loaded.train().size() + loaded.validation().size() + loaded.test().size();
    }
}
