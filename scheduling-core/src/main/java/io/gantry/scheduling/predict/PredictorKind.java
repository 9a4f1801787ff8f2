package io.gantry.scheduling.predict;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The duration predictors a replay can use, by the name the command line and tables give them. */
public enum PredictorKind {
    /** {@link HistoryDurationPredictor}, the default. */
    HISTORY("history", false),
    /** {@link LearnedDurationPredictor}. */
    LEARNED("learned", false),
    /** {@link OracleDurationPredictor}: true durations, not deployable. */
    ORACLE("oracle-durations", true);

    private final String cliName;
    private final boolean oracle;

    PredictorKind(String cliName, boolean oracle) {
        this.cliName = cliName;
        this.oracle = oracle;
    }

    public String cliName() {
        return cliName;
    }

    /** True when the predictor knows what a deployed scheduler cannot (tables mark such rows). */
    public boolean oracle() {
        return oracle;
    }

    /** A fresh predictor with no history: each replay needs its own, since predictors learn from the jobs they see. */
    public DurationPredictor create() {
        return switch (this) {
            case HISTORY -> new HistoryDurationPredictor();
            case LEARNED -> new LearnedDurationPredictor();
            case ORACLE -> new OracleDurationPredictor();
        };
    }

    public static PredictorKind byCliName(String name) {
        for (PredictorKind k : values()) {
            if (k.cliName.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown predictor '" + name + "'; known: "
                + Arrays.stream(values()).map(PredictorKind::cliName).collect(Collectors.joining(", ")));
    }
}
