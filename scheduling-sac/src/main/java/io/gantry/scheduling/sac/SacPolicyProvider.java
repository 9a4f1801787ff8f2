package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.policy.PolicyProvider;

/** Registers {@code sac} with the core's PolicyRegistry: the configured checkpoint ({@link SacConfig}), else the shipped one. */
public final class SacPolicyProvider implements PolicyProvider {

    @Override
    public String name() {
        return SacPolicy.NAME;
    }

    @Override
    public SchedulingPolicy create() {
        return SacPolicy.fromConfiguredCheckpoint();
    }
}
