package io.gantry.tuner.service;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** {@code gantry.tuner.*}: where the measured profiles are, and the shape of the cluster's largest node. */
@ConfigMapping(prefix = "gantry.tuner")
public interface TunerConfig {

    /**
     * The Pollux app-profiles folder (one sub-folder per model). Unset: {@code traces/philly-pollux/app-profiles}
     * under {@link #sharedDir()}.
     */
    Optional<String> profilesDir();

    /**
     * The shared folder of traces and datasets ({@code GANTRY_SHARED_DIR} through application.properties); unset:
     * the system property {@code gantry.shared.dir}, then {@code ../shared} beside the project root.
     */
    Optional<String> sharedDir();

    /** GPUs of the largest node; also how GPUs are packed onto nodes when predicting synchronisation cost. */
    @WithDefault("8")
    int nodeGpus();

    /** vCPUs of the largest node. */
    @WithDefault("96")
    int nodeCpuCores();

    /** Memory of the largest node, GiB. */
    @WithDefault("384")
    int nodeMemoryGib();

    /** Smallest predicted scaling efficiency T(1) ÷ (n·T(n)) for which n GPUs are worth giving a job. */
    @WithDefault("0.7")
    double minScalingEfficiency();

    /**
     * The built-in profile of real training runs (CSV of {@code RunnerProfile}); unset: the one shipped in the jar,
     * measured on the development machine by {@code ./gantry bench tuner-profile}.
     */
    Optional<String> runnerProfile();

    /** Headroom of right-sized CPU and memory requests over the p95 of earlier runs of a model. */
    @WithDefault("1.2")
    double rightSizeHeadroom();

    /** Earlier measured runs of a model needed before its requests are right-sized. */
    @WithDefault("3")
    int rightSizeMinRuns();
}
