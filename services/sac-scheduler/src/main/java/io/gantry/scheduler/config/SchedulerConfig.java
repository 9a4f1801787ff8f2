package io.gantry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

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

    /**
     * Let a preemptive policy ({@code sac}, {@code tiresias}, …) stop running jobs, as it does in the simulator: the
     * stops travel in the decisions that use the room ({@code SchedulingDecision.preempts}) and the job resumes
     * later with the rest of its run. Both dispatcher clusters carry stops out (simulated, Kubernetes); jobs submitted
     * as not preemptible are never stopped.
     */
    @WithDefault("true")
    boolean preemption();

    /**
     * Job seconds per wall-clock second: the simulated cluster's speed-up, 1 on a real cluster. Policies see time on
     * the jobs' clock, so that how long a job waited or ran compares with how long it is predicted to run.
     */
    @WithDefault("${GANTRY_SIMULATED_CLUSTER_SPEEDUP:1}")
    double timeScale();

    /**
     * GPU-sharing placement (issue 19): {@code off} (the default: the policy places on node totals, as before), or a
     * placement plugin of scheduling-core's {@code GpuSharePolicies}: {@code random}, {@code dot-product},
     * {@code gpu-clustering}, {@code gpu-packing}, {@code best-fit}, {@code fgd}, {@code fgd-typical95},
     * {@code gantry-frag}, {@code fgd-learned}. With a plugin, the policy still chooses which jobs start and stop, and
     * the plugin chooses each one's node and GPU devices, tracked per device; decisions carry the devices.
     */
    @WithDefault("off")
    String gpuPlacement();

    /**
     * A node list in the trace's format ({@code openb_node_list_gpu_node.csv}: {@code sn,cpu_milli,memory_mib,gpu,
     * model}) giving each node's GPU model, which pods' GPU-model constraints are checked against; nodes not in it
     * (or without it) have model {@code unknown}. Their capacity always comes from the cluster's metrics.
     */
    Optional<String> gpuNodesFile();

    /**
     * A pod list in the trace's format whose shapes are FGD's target workload ({@code fgd}, {@code fgd-typical95},
     * {@code gantry-frag}); default: the shipped {@code openb_pod_list_default.csv}, the FGD paper's.
     */
    Optional<String> gpuTargetPods();

    /** Seeds the plugin's random tie-break among equally scored nodes (and the {@code random} plugin). */
    @WithDefault("1")
    long gpuPlacementSeed();
}
