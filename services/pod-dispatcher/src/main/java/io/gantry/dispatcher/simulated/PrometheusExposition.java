package io.gantry.dispatcher.simulated;

import io.gantry.scheduling.model.Resources;
import java.util.Locale;

/**
 * Renders a {@link ClusterSnapshot} in the Prometheus text format (0.0.4) under the names real exporters use,
 * so metrics-ingest reads the simulated cluster and a real Prometheus alike:
 * <ul>
 * <li>kube-state-metrics: {@code kube_node_status_capacity{node,resource,unit}} (cpu in cores, memory in bytes,
 * nvidia_com_gpu in GPUs) and {@code kube_pod_container_resource_requests{namespace,pod,container,node,resource,unit}}
 * per running pod (one pod per task, named {@code <jobId>-<task>}), as kube-state-metrics does; the series count
 * is bounded by the running pods, which the cluster's capacity bounds.</li>
 * <li>node-exporter: {@code node_memory_MemTotal_bytes}, {@code node_memory_MemAvailable_bytes},
 * {@code node_cpu_seconds_total{cpu,mode="idle"}}, {@code node_time_seconds}, labelled {@code instance=<node>};
 * times are on the simulated clock.</li>
 * <li>DCGM exporter: {@code DCGM_FI_DEV_GPU_UTIL{gpu,Hostname}} in percent.</li>
 * </ul>
 * Simulated pods use exactly what they request: available memory is capacity minus requests, GPU {@code i} is
 * busy for the part of the requested GPUs that falls on it (requests fill GPUs in order), CPU idle time follows
 * {@link CpuIdleAccount}.
 */
public final class PrometheusExposition {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final double BYTES_PER_MIB = 1024.0 * 1024.0;

    private PrometheusExposition() {
    }

    public static String render(ClusterSnapshot snapshot) {
        StringBuilder out = new StringBuilder(16_384);
        family(out, "kube_node_status_capacity", "gauge", "The capacity for different resources of a node.");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            resourceSeries(out, "kube_node_status_capacity", "node=\"" + esc(n.name()) + "\"", n.capacity());
        }
        family(out, "kube_pod_container_resource_requests", "gauge",
                "The number of requested request resource by a container.");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            for (ClusterSnapshot.Pod pod : n.pods()) {
                resourceSeries(out, "kube_pod_container_resource_requests", "namespace=\"gantry\",pod=\""
                        + esc(pod.name()) + "\",container=\"main\",node=\"" + esc(n.name()) + "\"", pod.requests());
            }
        }
        family(out, "node_memory_MemTotal_bytes", "gauge", "Memory information field MemTotal_bytes.");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            sample(out, "node_memory_MemTotal_bytes", instance(n), n.capacity().memoryMib() * BYTES_PER_MIB);
        }
        family(out, "node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            long availableMib = Math.max(0, n.capacity().memoryMib() - n.allocated().memoryMib());
            sample(out, "node_memory_MemAvailable_bytes", instance(n), availableMib * BYTES_PER_MIB);
        }
        family(out, "node_cpu_seconds_total", "counter", "Seconds the CPUs spent in each mode.");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            double[] idle = n.idleCpuSeconds();
            for (int cpu = 0; cpu < idle.length; cpu++) {
                sample(out, "node_cpu_seconds_total",
                        "cpu=\"" + cpu + "\",instance=\"" + esc(n.name()) + "\",mode=\"idle\"", idle[cpu]);
            }
        }
        family(out, "node_time_seconds", "gauge", "System time in seconds since epoch (1970).");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            sample(out, "node_time_seconds", instance(n), snapshot.simulatedEpochSeconds());
        }
        family(out, "DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).");
        for (ClusterSnapshot.Node n : snapshot.nodes()) {
            int gpus = (int) (n.capacity().gpuMilli() / 1000);
            double busyGpus = n.allocated().gpuMilli() / 1000.0;
            for (int gpu = 0; gpu < gpus; gpu++) {
                double busy = Math.min(1.0, Math.max(0.0, busyGpus - gpu));
                sample(out, "DCGM_FI_DEV_GPU_UTIL", "gpu=\"" + gpu + "\",Hostname=\"" + esc(n.name()) + "\"",
                        busy * 100.0);
            }
        }
        return out.toString();
    }

    private static void resourceSeries(StringBuilder out, String name, String labels, Resources r) {
        sample(out, name, labels + ",resource=\"cpu\",unit=\"core\"", r.cpuMilli() / 1000.0);
        sample(out, name, labels + ",resource=\"memory\",unit=\"byte\"", r.memoryMib() * BYTES_PER_MIB);
        sample(out, name, labels + ",resource=\"nvidia_com_gpu\",unit=\"integer\"", r.gpuMilli() / 1000.0);
    }

    private static String instance(ClusterSnapshot.Node n) {
        return "instance=\"" + esc(n.name()) + "\"";
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name).append('{').append(labels).append("} ").append(number(value)).append('\n');
    }

    /** Integral values without a fraction (exact for byte counts), others in Java's round-trip decimal form. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }

    private static String esc(String labelValue) {
        return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
