package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.config.SimulatedClusterConfig;

/** The checks the simulated cluster's settings must pass before it starts. */
final class SimulatedClusterSettings {

    private SimulatedClusterSettings() {
    }

    /** The simulated cluster's settings, refused when they make no cluster. */
    static SimulatedClusterConfig checked(SimulatedClusterConfig config) {
        if (config.nodes() < 1) {
            throw new IllegalArgumentException("gantry.simulated-cluster.nodes must be at least 1, was " + config.nodes());
        }
        if (!(config.speedup() > 0) || Double.isInfinite(config.speedup())) {
            throw new IllegalArgumentException("gantry.simulated-cluster.speedup must be a positive number, was "
                    + config.speedup());
        }
        if (!(config.defaultDurationS() >= 0)) {
            throw new IllegalArgumentException("gantry.simulated-cluster.default-duration-s must be >= 0, was "
                    + config.defaultDurationS());
        }
        return config;
    }
}
