package io.gantry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "gantry.scheduler")
public interface SchedulerConfig {

    /** The policy that decides, by its registered name in scheduling-core. */
    @WithDefault("sac")
    String policy();

    /** The version named in every decision; built-in heuristics have one fixed version. */
    @WithDefault("builtin-1")
    String policyVersion();

    /** Priority of a user the scheduler has not yet heard about on gantry.users.priority. */
    @WithDefault("0")
    double defaultPriority();
}
