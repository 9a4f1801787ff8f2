package io.gantry.dispatcher.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Shape and pace of the simulated cluster (DESIGN §2): {@code nodes} identical fake nodes named
 * {@code sim-node-01}..{@code sim-node-NN}. Environment variables override as usual, e.g.
 * {@code GANTRY_SIMULATED_CLUSTER_NODES=4}, {@code GANTRY_SIMULATED_CLUSTER_SPEEDUP=100000}.
 * The defaults are the default experiment: 13 nodes of the commonest Alibaba GPU shape.
 */
@ConfigMapping(prefix = "gantry.simulated-cluster")
public interface SimulatedClusterConfig {

    /** How many fake nodes. */
    @WithDefault("13")
    int nodes();

    @WithDefault("8")
    int gpusPerNode();

    @WithDefault("96")
    int vcpusPerNode();

    @WithDefault("384")
    int memoryGibPerNode();

    /** Simulated seconds per wall-clock second: a pod of {@code durationS} runs {@code durationS / speedup} wall seconds. */
    @WithDefault("1000")
    double speedup();

    /**
     * Simulated run time of a job whose decision carries no {@code durationS} (a job submitted without a known
     * duration, e.g. by a user rather than a trace replay). One hour.
     */
    @WithDefault("3600")
    double defaultDurationS();
}
