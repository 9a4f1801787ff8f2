package io.gantry.dispatcher.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Which cluster the dispatcher drives ({@code gantry.dispatcher.cluster}, env {@code GANTRY_DISPATCHER_CLUSTER}),
 * and how it behaves as the Kubernetes scheduler {@code gantry}. The API server connection itself is the
 * Kubernetes client's: in a pod its service account, outside {@code ~/.kube/config} or {@code quarkus.kubernetes-client.*}.
 */
@ConfigMapping(prefix = "gantry.dispatcher")
public interface DispatcherConfig {

    enum ClusterKind { SIMULATED, KUBERNETES }

    /** {@code simulated} (fake nodes in memory, the embedded default) or {@code kubernetes}. */
    @WithDefault("simulated")
    ClusterKind cluster();

    Kubernetes kubernetes();

    interface Kubernetes {

        /** The {@code spec.schedulerName} Gantry answers for. */
        @WithDefault("gantry")
        String schedulerName();

        /** Namespace of the pods Gantry creates for submitted jobs. */
        @WithDefault("gantry-jobs")
        String jobNamespace();

        /**
         * Image of the pods Gantry creates. {@code JobSubmitted} names no image: a submitted job is a training run
         * of the platform's trainer, parameterised by the {@code GANTRY_*} environment of its pod. Jobs that need
         * their own image are submitted as pods with {@code schedulerName: gantry} instead.
         */
        @WithDefault("busybox:1.36")
        String jobImage();

        /**
         * Command of the pods Gantry creates. The default is a stand-in workload, like the simulated cluster's:
         * it runs for the job's {@code durationS} (1 h when unknown) and succeeds.
         */
        @WithDefault("sh,-c,sleep \"${GANTRY_DURATION_S:-3600}\"")
        List<String> jobCommand();

        /** Service account of the pods Gantry creates; the namespace's default when absent. */
        Optional<String> jobServiceAccount();

        /** How often every node's capacity is published again, besides on every change. */
        @WithDefault("10s")
        Duration metricsInterval();
    }
}
