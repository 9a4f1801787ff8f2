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

    /**
     * Smallest share of one GPU's work that each GPU added to a job must itself do for it to be given
     * (scheduling-core's {@code ScaleOutRule}, a marginal test, not the average T(1) ÷ (n·T(n))).
     */
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

    /** Limits of {@code POST /jobs}, per user ({@code gantry.tuner.submissions.*}). */
    Submissions submissions();

    /**
     * How much one user may submit through {@code POST /jobs}: a token bucket of {@link #burst()} submissions refilled
     * at {@link #perSecond()}, and at most {@link #maxPendingPerUser()} of their REST-submitted jobs not yet ended.
     */
    interface Submissions {

        /** Jobs of one user, submitted here and not yet completed, failed or rejected; one more is refused. */
        @WithDefault("1000")
        int maxPendingPerUser();

        /** Submissions one user may make at once before the rate applies. */
        @WithDefault("100")
        int burst();

        /** Sustained submissions per second per user (the bucket's refill rate). */
        @WithDefault("10")
        double perSecond();
    }
}
