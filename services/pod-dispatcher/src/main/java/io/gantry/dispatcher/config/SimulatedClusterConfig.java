package io.gantry.dispatcher.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

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

    /**
     * A node list in the Alibaba GPU 2023 trace's format ({@code sn,cpu_milli,memory_mib,gpu,model}, e.g. the shipped
     * {@code openb_node_list_gpu_node.csv}, 1,213 nodes): the simulated cluster is those nodes, named by {@code sn},
     * instead of {@code nodes} identical ones ({@code ./gantry up --nodes-file}). A missing file or a bad row stops
     * the start with the file, line and reason.
     */
    Optional<String> nodesFile();

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
