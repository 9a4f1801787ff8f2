package io.gantry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.util.Optional;

/**
 * The sac policy's settings ({@code GANTRY_SAC_CHECKPOINT}, {@code GANTRY_SAC_RESTART_COST_S}), handed to scheduling-sac
 * as a {@link io.gantry.scheduling.sac.SacConfig}, which checks them.
 */
@ConfigMapping(prefix = "gantry.sac")
public interface SacPolicyConfig {

    /** The checkpoint to start from (a folder, or {@code classpath:/…}); empty for the shipped one. */
    Optional<String> checkpoint();

    /** Seconds of run time a preempted job needs again when it resumes; 0 makes preemption free. */
    @WithName("restart-cost-s")
    @WithDefault("0")
    double restartCostS();
}
