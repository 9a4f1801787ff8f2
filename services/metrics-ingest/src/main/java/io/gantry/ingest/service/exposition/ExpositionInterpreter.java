package io.gantry.ingest.service.exposition;

import io.gantry.events.ResourceAmounts;
import io.gantry.ingest.service.KubeUnits;
import io.gantry.ingest.service.NodeReading;
import io.gantry.ingest.service.Rejection;
import io.gantry.ingest.service.SourceReading;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the series of an exposition into per-node readings, with the names real exporters use:
 * <ul>
 * <li>capacity: {@code kube_node_status_capacity{node,resource}} (cpu cores, memory bytes, nvidia_com_gpu);</li>
 * <li>allocated and running pods: the sum and the distinct pods of
 * {@code kube_pod_container_resource_requests{node,pod,resource}} (series without a node — pending pods — are
 * skipped);</li>
 * <li>memory: {@code 1 − node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes};</li>
 * <li>GPU: mean of {@code DCGM_FI_DEV_GPU_UTIL{Hostname}} / 100;</li>
 * <li>CPU: {@code 1 − mean over cpus of Δ node_cpu_seconds_total{mode="idle"} / Δ node_time_seconds} between
 * this read and the previous one, the rate PromQL would compute; null on a node's first read, after a counter
 * reset, or when the CPU set changed — never guessed.</li>
 * </ul>
 * node-exporter series name their node by {@code instance}, whose {@code :port} suffix is dropped. Stateful
 * (the previous counters), so one instance serves one source on one thread.
 */
public final class ExpositionInterpreter {

    private final Map<String, CpuCounters> previousCpu = new HashMap<>();

    private record CpuCounters(double time, Map<String, Double> idleByCpu) {
    }

    /** Everything the exposition says about one node. */
    private static final class NodeSeries {
        final Map<String, Double> capacity = new HashMap<>();
        final Map<String, Double> requested = new HashMap<>();
        final Set<String> pods = new HashSet<>();
        final List<Double> gpuUtilPercent = new ArrayList<>();
        final Map<String, Double> idleByCpu = new TreeMap<>();
        Double memTotal;
        Double memAvailable;
        Double time;
        final StringBuilder evidence = new StringBuilder();
    }

    public SourceReading interpret(ParsedExposition parsed) {
        List<Rejection> rejections = new ArrayList<>();
        parsed.errors().forEach(e -> rejections.add(new Rejection("line", "line",
                "line " + e.line() + ": " + e.reason(), e.raw())));
        Map<String, NodeSeries> byNode = new LinkedHashMap<>();
        for (Sample s : parsed.samples()) {
            String nodeLabel = nodeLabelOf(s.name());
            if (nodeLabel == null) {
                continue; // a series this ingest does not use
            }
            String node = s.label(nodeLabel);
            if (node != null && nodeLabel.equals("instance")) {
                node = KubeUnits.stripPort(node);
            }
            if (node == null || node.isBlank()) {
                if (!s.name().equals("kube_pod_container_resource_requests")) {
                    rejections.add(new Rejection("line", "line", "line " + s.line() + ": " + s.name()
                            + " has no " + nodeLabel + " label naming its node", s.raw()));
                }
                continue;
            }
            NodeSeries n = byNode.computeIfAbsent(node, k -> new NodeSeries());
            n.evidence.append(s.raw()).append('\n');
            switch (s.name()) {
                case "kube_node_status_capacity" -> putResource(n.capacity, s, false);
                case "kube_pod_container_resource_requests" -> {
                    if (putResource(n.requested, s, true)) {
                        n.pods.add(s.label("namespace") + "/" + s.label("pod"));
                    }
                }
                case "node_memory_MemTotal_bytes" -> n.memTotal = s.value();
                case "node_memory_MemAvailable_bytes" -> n.memAvailable = s.value();
                case "DCGM_FI_DEV_GPU_UTIL" -> n.gpuUtilPercent.add(s.value());
                case "node_cpu_seconds_total" -> {
                    if ("idle".equals(s.label("mode"))) {
                        n.idleByCpu.put(s.label("cpu"), s.value());
                    }
                }
                case "node_time_seconds" -> n.time = s.value();
                default -> throw new IllegalStateException("unhandled series " + s.name());
            }
        }
        List<NodeReading> readings = new ArrayList<>();
        byNode.forEach((node, series) -> {
            String problem = problemWith(series);
            if (problem != null) {
                rejections.add(new Rejection("node", node, problem, series.evidence.toString()));
            } else {
                readings.add(reading(node, series));
            }
        });
        previousCpu.keySet().retainAll(byNode.keySet());
        return new SourceReading(List.copyOf(readings), List.copyOf(rejections));
    }

    private static String nodeLabelOf(String metric) {
        return switch (metric) {
            case "kube_node_status_capacity", "kube_pod_container_resource_requests" -> "node";
            case "node_memory_MemTotal_bytes", "node_memory_MemAvailable_bytes", "node_cpu_seconds_total",
                    "node_time_seconds" -> "instance";
            case "DCGM_FI_DEV_GPU_UTIL" -> "Hostname";
            default -> null;
        };
    }


    /** Adds (requests) or sets (capacity) the resources Gantry schedules; returns whether it was one of them. */
    private static boolean putResource(Map<String, Double> into, Sample s, boolean sum) {
        String resource = s.label("resource");
        if (!"cpu".equals(resource) && !"memory".equals(resource) && !"nvidia_com_gpu".equals(resource)) {
            return false;
        }
        if (sum) {
            into.merge(resource, s.value(), Double::sum);
        } else {
            into.put(resource, s.value());
        }
        return true;
    }

    private static String problemWith(NodeSeries n) {
        if (n.capacity.isEmpty()) {
            return "no kube_node_status_capacity series for the node: its capacity is unknown";
        }
        for (Map.Entry<String, Double> e : n.capacity.entrySet()) {
            if (!Double.isFinite(e.getValue())) {
                return "kube_node_status_capacity " + e.getKey() + " is " + e.getValue();
            }
        }
        for (Map.Entry<String, Double> e : n.requested.entrySet()) {
            if (!Double.isFinite(e.getValue())) {
                return "kube_pod_container_resource_requests " + e.getKey() + " sums to " + e.getValue();
            }
        }
        return null;
    }

    private NodeReading reading(String node, NodeSeries n) {
        // A resource the node does not report is one it does not have (kube-state-metrics omits zero GPUs).
        ResourceAmounts capacity = KubeUnits.amounts(n.capacity);
        ResourceAmounts allocated = KubeUnits.amounts(n.requested);
        Double memory = n.memTotal != null && n.memAvailable != null && Double.isFinite(n.memTotal)
                && Double.isFinite(n.memAvailable) && n.memTotal > 0 ? 1.0 - n.memAvailable / n.memTotal : null;
        Double gpu = n.gpuUtilPercent.isEmpty() || !n.gpuUtilPercent.stream().allMatch(Double::isFinite) ? null
                : n.gpuUtilPercent.stream().mapToDouble(Double::doubleValue).average().orElseThrow() / 100.0;
        return new NodeReading(node, capacity, allocated, cpuUtilisation(node, n), gpu, memory, n.pods.size(),
                n.evidence.toString());
    }

    private Double cpuUtilisation(String node, NodeSeries n) {
        if (n.time == null || !Double.isFinite(n.time) || n.idleByCpu.isEmpty()
                || !n.idleByCpu.values().stream().allMatch(Double::isFinite)) {
            previousCpu.remove(node);
            return null;
        }
        CpuCounters now = new CpuCounters(n.time, Map.copyOf(n.idleByCpu));
        CpuCounters before = previousCpu.put(node, now);
        if (before == null || !before.idleByCpu().keySet().equals(now.idleByCpu().keySet())) {
            return null;
        }
        double elapsed = now.time() - before.time();
        if (!(elapsed > 0)) {
            return null;
        }
        double idle = 0;
        for (Map.Entry<String, Double> e : now.idleByCpu().entrySet()) {
            double delta = e.getValue() - before.idleByCpu().get(e.getKey());
            if (delta < 0) {
                return null; // counter reset (a reboot): no rate from this pair
            }
            idle += delta;
        }
        double busy = 1.0 - idle / now.idleByCpu().size() / elapsed;
        return KubeUnits.snapRatio(busy);
    }

}
