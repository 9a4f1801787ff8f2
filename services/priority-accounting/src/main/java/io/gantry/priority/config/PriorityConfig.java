package io.gantry.priority.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

@ConfigMapping(prefix = "gantry.priority")
public interface PriorityConfig {

    /** Base priority of a user no administrator has configured. */
    @WithDefault("0")
    double defaultBasePriority();

    /** Entitlement weight of a user no administrator has configured. */
    @WithDefault("1")
    double defaultWeight();

    /**
     * Base priorities to create at start-up for users not yet in the database, e.g.
     * {@code gantry.priority.users.alice=10}. Once a user exists, the admin REST API is the way to change it.
     */
    Map<String, Double> users();

    /** Usage from one half-life ago counts half (Slurm's PriorityDecayHalfLife defaults to 7 days). */
    @WithDefault("P7D")
    Duration usageHalfLife();

    /** How much priority the fair-share factor adds at most on top of the base priority. */
    @WithDefault("100")
    double fairShareWeight();

    /** A user's priority is published again once it moved at least this much from the last published value. */
    @WithDefault("1")
    double publishThreshold();

    /** How often priorities are recomputed and the moved ones published; read by {@code @Scheduled}. */
    @WithDefault("1s")
    String recomputeInterval();

    /** A user whose oldest waiting job has waited this long while under its entitlement is reported as starving. */
    @WithDefault("PT10M")
    Duration starvingAfter();
}
