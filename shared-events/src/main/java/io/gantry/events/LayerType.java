package io.gantry.events;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The layer types a {@link ModelGraph} may use, each with the parameters it takes (name, whether required, bounds) and
 * how many incoming edges it needs. Shapes are not checked here (the contract does not know the datasets' shapes): the
 * {@code training-model} module's shape inference does that.
 */
public enum LayerType {
    /** The dataset's sample (digits: 1×8×8; iris: 4; wine: 13; breast-cancer: 30). Optional {@code shape} must match. */
    Input(0, 0),
    /** Fully connected: {@code units} outputs from a 1-D input. */
    Linear(1, 1, Param.count("units", true, 1, Limits.MAX_TRAINING_UNITS)),
    /** 2-D convolution over a C×H×W input: {@code filters} output channels, square {@code kernel}, {@code stride} (1), {@code padding} (0). */
    Conv2d(1, 1, Param.count("filters", true, 1, Limits.MAX_TRAINING_UNITS), Param.count("kernel", true, 1, 64),
            Param.count("stride", false, 1, 64), Param.count("padding", false, 0, 64)),
    /** Max pooling over a C×H×W input: square {@code kernel}, {@code stride} (= kernel), {@code padding} (0). */
    MaxPool2d(1, 1, Param.count("kernel", true, 1, 64), Param.count("stride", false, 1, 64),
            Param.count("padding", false, 0, 64)),
    /** Average pooling, parameters as {@link #MaxPool2d}. */
    AvgPool2d(1, 1, Param.count("kernel", true, 1, 64), Param.count("stride", false, 1, 64),
            Param.count("padding", false, 0, 64)),
    /** Batch normalisation over axis 1 (features or channels). */
    BatchNorm(1, 1),
    /** Dropout with probability {@code rate} in [0, 0.95] while training; identity at evaluation. */
    Dropout(1, 1, Param.real("rate", true, 0.0, 0.95)),
    ReLU(1, 1),
    Tanh(1, 1),
    Sigmoid(1, 1),
    GELU(1, 1),
    /** Flattens everything but the batch axis into one axis. */
    Flatten(1, 1),
    /** Element-wise sum of two or more inputs of the same shape. */
    Add(2, Limits.MAX_TRAINING_LAYERS),
    /** Concatenation of two or more inputs along axis 1 (features or channels); the other axes must agree. */
    Concat(2, Limits.MAX_TRAINING_LAYERS),
    /** The classifier head: a linear layer to one logit per class of the dataset from a 1-D input; optional {@code units} must equal the class count. */
    Output(1, 1, Param.count("units", false, 1, Limits.MAX_TRAINING_UNITS));

    /** One parameter of a layer: a whole number or a real number within bounds. */
    public record Param(String name, boolean required, boolean integer, double min, double max) {
        static Param count(String name, boolean required, long min, long max) {
            return new Param(name, required, true, min, max);
        }

        static Param real(String name, boolean required, double min, double max) {
            return new Param(name, required, false, min, max);
        }
    }

    private final int minInputs;
    private final int maxInputs;
    private final Map<String, Param> params;

    LayerType(int minInputs, int maxInputs, Param... params) {
        this.minInputs = minInputs;
        this.maxInputs = maxInputs;
        this.params = Arrays.stream(params).collect(Collectors.toUnmodifiableMap(Param::name, p -> p));
    }

    public int minInputs() {
        return minInputs;
    }

    public int maxInputs() {
        return maxInputs;
    }

    public Map<String, Param> params() {
        return params;
    }

    /** The type named {@code name} (exact spelling), or null. */
    public static LayerType named(String name) {
        for (LayerType t : values()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(Enum::name).toList();
    }
}
