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
         * Image of the pods Gantry creates for <b>trace jobs</b> (a {@code JobSubmitted} without {@code training}):
         * an explicit stand-in, like the simulated cluster's sleep, that runs for the job's {@code durationS}. A job
         * with {@code training} runs {@link Training#image()} instead. Jobs that need their own image are submitted as
         * pods with {@code schedulerName: gantry}.
         */
        @WithDefault("busybox:1.36")
        String traceJobImage();

        /**
         * Command of the trace-job stand-in: it runs for the job's {@code durationS} (1 h when unknown) and
         * succeeds.
         */
        @WithDefault("sh,-c,sleep \"${GANTRY_DURATION_S:-3600}\"")
        List<String> traceJobCommand();

        /** The pods of real training jobs (a {@code training} spec): the job runner. */
        Training training();

        /** Service account of the pods Gantry creates; the namespace's default when absent. */
        Optional<String> jobServiceAccount();

        /** How often every node's capacity is published again, besides on every change. */
        @WithDefault("10s")
        Duration metricsInterval();
    }

    /**
     * A real training job's pod: the job runner's image, the spec in a ConfigMap mounted at
     * {@code /etc/gantry/training/spec.json}, checkpoints on a PersistentVolumeClaim (one directory per job, kept
     * across attempts, so a preempted job resumes), requests and limits from the decision (the tuner's
     * {@code JobTuned}, right-sized).
     */
    interface Training {

        /** The job runner's image (application.properties: {@code localhost/gantry/job-runner:<version>}). */
        @WithDefault("localhost/gantry/job-runner:latest")
        String image();

        /** Command of the runner container; absent: the image's entrypoint (the runner's main), given only args. */
        Optional<List<String>> command();

        /** The PersistentVolumeClaim (in the jobs' namespace) that holds every job's checkpoint directory. */
        @WithDefault("gantry-checkpoints")
        String checkpointClaim();

        /** Where the runner publishes JobProgress and JobResult (the platform's Kafka, as seen from the job pods). */
        @WithDefault("kafka.gantry.svc:9092")
        String kafkaBootstrap();

        /**
         * The Secret in the jobs' namespace whose key {@code sasl.jaas.config} is the runners' Kafka login (principal
         * {@code job-runner}; deploy/kafka-runner-secret.sh copies the KafkaUser's there). Set, every training pod logs in
         * with it, SCRAM-SHA-512 over SASL_PLAINTEXT as the services do; absent, the runner speaks plaintext.
         */
        Optional<String> kafkaLoginSecret();

        /**
         * The PersistentVolumeClaim (in the jobs' namespace) holding the datasets' CSV files ({@code ../shared/datasets}),
         * mounted read-only at {@code /datasets}; the runner image has none of its own.
         */
        @WithDefault("gantry-datasets")
        String datasetsClaim();

        /**
         * The training pods' {@code securityContext.fsGroup}: Kubernetes makes their volumes (the checkpoint claim)
         * group-owned and group-writable by it and adds it to the container's groups, so the runner image's non-root
         * user (uid 185) can write checkpoints on a claim whose root directory belongs to root. The default is that
         * user's own id, as the services' pods use. Negative: unset, for a cluster whose admission assigns one itself
         * (e.g. OpenShift's restricted SCC).
         */
        @WithDefault("185")
        long fsGroup();
    }
}
