package io.gantry.scheduling.sac;

import java.util.function.Function;

/**
 * The sac policy's settings, handed in by whoever runs it: sac-scheduler from its configuration
 * ({@code gantry.sac.checkpoint}, {@code gantry.sac.restart-cost-s}; env {@code GANTRY_SAC_CHECKPOINT},
 * {@code GANTRY_SAC_RESTART_COST_S}), the command line from {@code --policy-setting sac.checkpoint=DIR} and
 * {@code --policy-setting sac.restart-cost-s=S} (or the same {@code -D} properties and environment variables).
 * Nothing in the policy reads the environment itself.
 *
 * @param checkpoint   where the agent is loaded from: a folder, or {@code classpath:/…}
 * @param restartCostS seconds of run time a preempted job needs again when it resumes; sac stops a job only if it is
 *                     less urgent by more than that per GPU (0: preemption is free)
 * @param replayLearningUpdates gradient steps per transition that each sac policy the registry makes takes while it
 *                     replays ({@link LearningReplayPolicy}, the bench's online-learning row; {@code --policy-setting
 *                     sac.replay-learning=U}); 0, the default, keeps the checkpoint frozen. The live scheduler's
 *                     online learning is its own (sac-scheduler, {@code OnlineLearner}) and ignores this.
 */
public record SacConfig(String checkpoint, double restartCostS, double replayLearningUpdates) {

    public static final String CHECKPOINT_KEY = "gantry.sac.checkpoint";
    public static final String RESTART_COST_KEY = "gantry.sac.restart-cost-s";
    public static final SacConfig DEFAULT = new SacConfig(SacPolicy.DEFAULT_CHECKPOINT, 0, 0);

    private static volatile SacConfig current = DEFAULT;

    public SacConfig {
        if (checkpoint == null || checkpoint.isBlank()) {
            throw new IllegalArgumentException(CHECKPOINT_KEY + " must name a checkpoint folder or classpath:/ location");
        }
        if (!(restartCostS >= 0) || Double.isInfinite(restartCostS)) {
            throw new IllegalArgumentException(RESTART_COST_KEY + " must be a finite number of seconds >= 0, got "
                    + restartCostS);
        }
        if (!(replayLearningUpdates >= 0) || Double.isInfinite(replayLearningUpdates)) {
            throw new IllegalArgumentException("sac.replay-learning must be a finite number of updates >= 0, got "
                    + replayLearningUpdates);
        }
    }

    /** A frozen policy: no learning during replays. */
    public SacConfig(String checkpoint, double restartCostS) {
        this(checkpoint, restartCostS, 0);
    }

    /** The settings policies made by the registry ({@link SacPolicyProvider}) use from now on in this JVM. */
    public static void use(SacConfig config) {
        current = config;
    }

    public static SacConfig current() {
        return current;
    }

    /**
     * The settings {@code lookup} gives under {@link #CHECKPOINT_KEY} and {@link #RESTART_COST_KEY} (null or blank:
     * the default); a bad value is an error naming the key, not a silent default.
     */
    public static SacConfig from(Function<String, String> lookup) {
        SacConfig c = DEFAULT;
        String checkpoint = lookup.apply(CHECKPOINT_KEY);
        if (checkpoint != null && !checkpoint.isBlank()) {
            c = c.with("sac.checkpoint", checkpoint);
        }
        String cost = lookup.apply(RESTART_COST_KEY);
        if (cost != null && !cost.isBlank()) {
            c = c.with("sac.restart-cost-s", cost);
        }
        return c;
    }

    /** This config with one setting changed, as {@code --policy-setting sac.KEY=VALUE} names it. */
    public SacConfig with(String key, String value) {
        return switch (key) {
            case "sac.checkpoint" -> new SacConfig(value.strip(), restartCostS, replayLearningUpdates);
            case "sac.restart-cost-s" -> new SacConfig(checkpoint, seconds(value), replayLearningUpdates);
            case "sac.replay-learning" -> new SacConfig(checkpoint, restartCostS, updates(value));
            default -> throw new IllegalArgumentException("unknown sac setting '" + key
                    + "'; known: sac.checkpoint, sac.restart-cost-s, sac.replay-learning");
        };
    }

    private static double updates(String v) {
        try {
            double u = Double.parseDouble(v.strip());
            if (u >= 0 && !Double.isInfinite(u)) {
                return u;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("sac.replay-learning takes gradient steps per transition >= 0, got '" + v + "'");
    }

    private static double seconds(String v) {
        double s;
        try {
            s = Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            s = Double.NaN;
        }
        if (!(s >= 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException(RESTART_COST_KEY + " must be a finite number of seconds >= 0, got '"
                    + v + "'");
        }
        return s;
    }
}
