package io.gantry.ingest.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;

/** How metrics-ingest reads the cluster. Environment variables override, e.g. {@code GANTRY_INGEST_SOURCE_URL}. */
@ConfigMapping(prefix = "gantry.ingest")
public interface IngestConfig {

    /** Time between two reads of the source while it answers. */
    @WithDefault("1s")
    Duration interval();

    /**
     * Which {@code NodeMetricsSource} reads the cluster: {@code exposition} scrapes a Prometheus text exposition
     * (the simulated cluster's, or any exporter's); {@code prometheus} runs PromQL against a Prometheus server's
     * HTTP API ({@link #prometheus()}).
     */
    @WithDefault("exposition")
    String source();

    /** What the exposition source scrapes (unused by the prometheus source). */
    @WithDefault("http://localhost:8085/simulated-cluster/metrics")
    URI sourceUrl();

    /** Written into every NodeMetrics' {@code source} field. */
    @WithDefault("simulated-cluster")
    String sourceName();

    /** How long one read may take before it counts as a failure. */
    @WithDefault("2s")
    Duration timeout();

    /** Upper bound of the retry delay, which doubles from {@link #interval()} with each failed read. */
    @WithDefault("5s")
    Duration maxBackoff();

    /** Readiness is DOWN while the last successful read is older than this (or there was none yet). */
    @WithDefault("10s")
    Duration readinessMaxAge();

    /** A node missing from every read for this long is no longer published (as stale); it was removed. */
    @WithDefault("5m")
    Duration forgetMissingAfter();

    /** Per-job training metrics ({@code gantry_job_*}) from the lifecycle topic's {@code JobProgress} events. */
    Jobs jobs();

    interface Jobs {

        /**
         * A job's series are removed this long after its terminal event (completed, failed, rejected), so a
         * dashboard still shows the end of the run while the number of series stays bounded by the jobs running.
         */
        @WithDefault("5m")
        Duration forgetAfter();

        /**
         * A job that reported nothing (progress or end) for this long is forgotten too: a runner that vanished
         * without an end event does not keep its series forever.
         */
        @WithDefault("6h")
        Duration forgetSilentAfter();

        /** At most this many jobs have series at once; beyond it the job ended (else silent) longest is dropped. */
        @WithDefault("1000")
        int maxJobs();
    }

    /** The {@code prometheus} source: where Prometheus is, the PromQL it evaluates, and how results name nodes. */
    Prometheus prometheus();

    interface Prometheus {

        /** Base URL of the Prometheus server; queries go to {@code <url>/api/v1/query}. */
        @WithDefault("http://localhost:9090")
        URI url();

        /** The label naming the node in kube-state-metrics results (capacity, requests, pods). */
        @WithDefault("node")
        String kubeStateNodeLabel();

        /**
         * The label naming the node in node-exporter results (cpu, memory, machine-*); a {@code :port} suffix is
         * dropped. kube-prometheus relabels {@code instance} to the node name.
         */
        @WithDefault("instance")
        String nodeExporterNodeLabel();

        /** The label naming the node in DCGM exporter results (gpu, machine-gpus). */
        @WithDefault("Hostname")
        String dcgmNodeLabel();

        Queries queries();
    }

    /** One PromQL instant query per figure; each must aggregate to one series per node (and resource). */
    interface Queries {

        @WithDefault("sum by (node, resource) (kube_node_status_capacity{resource=~\"cpu|memory|nvidia_com_gpu\"})")
        String capacity();

        @WithDefault("sum by (node, resource) (kube_pod_container_resource_requests{node!=\"\",resource=~\"cpu|memory|nvidia_com_gpu\"})")
        String requests();

        @WithDefault("count by (node) (count by (node, namespace, pod) (kube_pod_container_resource_requests{node!=\"\"}))")
        String pods();

        @WithDefault("1 - avg by (instance) (rate(node_cpu_seconds_total{mode=\"idle\"}[1m]))")
        String cpu();

        @WithDefault("1 - max by (instance) (node_memory_MemAvailable_bytes) / max by (instance) (node_memory_MemTotal_bytes)")
        String memory();

        @WithDefault("avg by (Hostname) (DCGM_FI_DEV_GPU_UTIL) / 100")
        String gpu();

        @WithDefault("count by (instance) (node_cpu_seconds_total{mode=\"idle\"})")
        String machineCpus();

        @WithDefault("max by (instance) (node_memory_MemTotal_bytes)")
        String machineMemory();

        @WithDefault("count by (Hostname) (DCGM_FI_DEV_GPU_UTIL)")
        String machineGpus();
    }
}
