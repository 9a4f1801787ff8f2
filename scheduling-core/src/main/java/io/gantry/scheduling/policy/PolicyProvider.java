package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.SchedulingPolicy;

/**
 * A policy that lives outside scheduling-core (the learned {@code sac} in scheduling-sac): {@link PolicyRegistry}
 * finds every provider on the classpath through {@link java.util.ServiceLoader}, so the core does not depend on it.
 * Register one with a line naming the class in {@code META-INF/services/io.gantry.scheduling.policy.PolicyProvider}.
 */
public interface PolicyProvider {

    /** The registered name, as used on the command line and in every decision event. */
    String name();

    /** A fresh instance (policies may keep per-run state). */
    SchedulingPolicy create();
}
