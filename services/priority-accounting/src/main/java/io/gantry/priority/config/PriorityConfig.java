package io.gantry.priority.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

@ConfigMapping(prefix = "gantry.priority")
public interface PriorityConfig {

    /** Base priority of a user no administrator has configured. */
    @WithDefault("0")
    double defaultBasePriority();

    /** Entitlement weight of a user no administrator has configured. */
    @WithDefault("1")
    double defaultWeight();

    /** Admin-set base priorities by user name, e.g. {@code gantry.priority.users.alice=10}. */
    Map<String, Double> users();
}
