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
}
