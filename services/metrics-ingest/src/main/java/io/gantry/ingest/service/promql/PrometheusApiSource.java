package io.gantry.ingest.service.promql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.events.ResourceAmounts;
import io.gantry.ingest.service.KubeUnits;
import io.gantry.ingest.service.NodeMetricsSource;
import io.gantry.ingest.service.NodeReading;
import io.gantry.ingest.service.Rejection;
import io.gantry.ingest.service.SourceReading;
import io.gantry.ingest.service.SourceUnavailableException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads node metrics from a Prometheus server through its HTTP API: at each read it evaluates the configured PromQL
 * {@link PromQueries} with {@code GET /api/v1/query} at one common evaluation time, so Prometheus computes the rates
 * and the series of one read belong together. Each result series names its node by a label (configurable per exporter
 * family: kube-state-metrics {@code node}, node-exporter {@code instance} without its {@code :port}, DCGM
 * {@code Hostname}).
 * <ul>
 * <li>A figure no query returned for a node is null, never estimated. Allocated resources and running pods are 0
 * only when kube-state-metrics reports the node (then no request series means no pods), else null.</li>
 * <li>Capacity is kube-state-metrics' {@code kube_node_status_capacity}; for a node kube-state-metrics does not
 * report (a machine outside Kubernetes, or a cluster without it) it is the machine as node-exporter and DCGM count
 * it: CPUs, MemTotal, GPUs. A node without either has no known capacity and is rejected, not published.</li>
 * <li>No answer, an HTTP error or a refused query is a failed read ({@link SourceUnavailableException}); so is an
 * answer with no series for any node (Prometheus up, exporters not scraped): the {@code MetricsIngestor} then
 * publishes known nodes as stale and backs off, exactly as for the exposition source.</li>
 * </ul>
 * Stateless between reads; called from the ingestor's one thread.
 */
public final class PrometheusApiSource implements NodeMetricsSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI queryEndpoint;
    private final Duration timeout;
    private final PromQueries queries;
    private final HttpClient http;

    public PrometheusApiSource(URI baseUrl, Duration timeout, PromQueries queries) {
        String base = baseUrl.toString().replaceAll("/+$", "");
        this.queryEndpoint = URI.create(base + "/api/v1/query");
        this.timeout = timeout;
        this.queries = queries;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** One series of an instant vector: its labels and value. */
    record Series(Map<String, String> labels, double value) {
        String describe() {
            return new TreeMap<>(labels) + " " + value;
        }
    }

    /** What the queries said about one node, by query. */
    private static final class NodeSeries {
        final Map<PromQueries.Kind, List<Series>> byQuery = new LinkedHashMap<>();
        final StringBuilder evidence = new StringBuilder();

        List<Series> of(PromQueries.Kind kind) {
            return byQuery.getOrDefault(kind, List.of());
        }
    }

    @Override
    public SourceReading read() throws SourceUnavailableException {
        // One evaluation time for every query of this read.
        String time = String.valueOf(Instant.now().toEpochMilli() / 1000.0);
        List<Rejection> rejections = new ArrayList<>();
        Map<String, NodeSeries> byNode = new LinkedHashMap<>();
        for (PromQueries.Kind kind : PromQueries.Kind.values()) {
            String promql = queries.promql(kind);
            String label = queries.nodeLabel(kind);
            for (Series s : query(kind, promql, time)) {
                String node = s.labels().get(label);
                if (node != null && kind.family() == PromQueries.Family.NODE_EXPORTER) {
                    node = KubeUnits.stripPort(node);
                }
                if (node == null || node.isBlank()) {
                    rejections.add(new Rejection("line", "line", "query " + kind.key() + " returned a series without"
                            + " the label " + label + " naming its node", kind.key() + ": " + s.describe()));
                    continue;
                }
                NodeSeries n = byNode.computeIfAbsent(node, k -> new NodeSeries());
                n.byQuery.computeIfAbsent(kind, k -> new ArrayList<>()).add(s);
                n.evidence.append(kind.key()).append(": ").append(s.describe()).append('\n');
            }
        }
        if (byNode.isEmpty()) {
            throw new SourceUnavailableException("unavailable", describe() + " answered, but no query returned a"
                    + " series for any node (are the exporters scraped?)", null);
        }
        List<NodeReading> readings = new ArrayList<>();
        byNode.forEach((node, series) -> {
            try {
                readings.add(reading(node, series));
            } catch (IllegalArgumentException problem) {
                rejections.add(new Rejection("node", node, problem.getMessage(), series.evidence.toString()));
            }
        });
        return new SourceReading(List.copyOf(readings), List.copyOf(rejections));
    }

    private List<Series> query(PromQueries.Kind kind, String promql, String time) throws SourceUnavailableException {
        URI uri = URI.create(queryEndpoint + "?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                + "&time=" + time);
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json")
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new SourceUnavailableException("unavailable", "cannot query " + queryEndpoint + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SourceUnavailableException("unavailable", "interrupted while querying " + queryEndpoint, e);
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        if (body == null || !body.isObject() || !body.has("status")) {
            // A proxy's error page, or not Prometheus at all.
            String kindOfFailure = response.statusCode() / 100 == 2 ? "unparsable" : "unavailable";
            throw new SourceUnavailableException(kindOfFailure, "HTTP " + response.statusCode() + " from "
                    + queryEndpoint + " is not a Prometheus API answer", null);
        }
        if (!"success".equals(body.path("status").asText())) {
            // bad_data is a query Prometheus refuses (a configuration error): as loud as an outage, never skipped.
            String errorType = body.path("errorType").asText();
            throw new SourceUnavailableException("bad_data".equals(errorType) ? "unparsable" : "unavailable",
                    "query " + kind.key() + " (" + promql + ") failed: " + errorType + ": "
                            + body.path("error").asText(), null);
        }
        JsonNode data = body.path("data");
        if (!"vector".equals(data.path("resultType").asText())) {
            throw new SourceUnavailableException("unparsable", "query " + kind.key() + " (" + promql
                    + ") must give an instant vector, gave " + data.path("resultType").asText(), null);
        }
        List<Series> result = new ArrayList<>();
        for (JsonNode item : data.path("result")) {
            Map<String, String> labels = new HashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = item.path("metric").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                labels.put(e.getKey(), e.getValue().asText());
            }
            result.add(new Series(Map.copyOf(labels), parseValue(item.path("value").path(1).asText())));
        }
        return result;
    }

    /** Prometheus writes sample values as strings, with {@code NaN}, {@code +Inf} and {@code -Inf}. */
    static double parseValue(String v) {
        return switch (v) {
            case "NaN" -> Double.NaN;
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(v);
        };
    }


    private static NodeReading reading(String node, NodeSeries n) {
        boolean kubeStateKnowsNode = !n.of(PromQueries.Kind.CAPACITY).isEmpty();
        ResourceAmounts capacity = capacity(node, n, kubeStateKnowsNode);
        ResourceAmounts allocated = null;
        Integer pods = null;
        if (kubeStateKnowsNode || !n.of(PromQueries.Kind.REQUESTS).isEmpty()) {
            allocated = KubeUnits.amounts(byResource(n.of(PromQueries.Kind.REQUESTS), PromQueries.Kind.REQUESTS, node, true));
            Double p = single(node, n, PromQueries.Kind.PODS);
            pods = p == null ? 0 : (int) Math.round(p);
        }
        return new NodeReading(node, capacity, allocated, ratio(single(node, n, PromQueries.Kind.CPU)),
                ratio(single(node, n, PromQueries.Kind.GPU)), ratio(single(node, n, PromQueries.Kind.MEMORY)), pods,
                n.evidence.toString());
    }

    private static ResourceAmounts capacity(String node, NodeSeries n, boolean kubeStateKnowsNode) {
        if (kubeStateKnowsNode) {
            return KubeUnits.amounts(byResource(n.of(PromQueries.Kind.CAPACITY), PromQueries.Kind.CAPACITY, node, false));
        }
        Double cpus = single(node, n, PromQueries.Kind.MACHINE_CPUS);
        Double memory = single(node, n, PromQueries.Kind.MACHINE_MEMORY);
        if (cpus == null && memory == null) {
            throw new IllegalArgumentException("no capacity: neither kube_node_status_capacity nor node-exporter's CPU"
                    + " and memory series for the node");
        }
        Double gpus = single(node, n, PromQueries.Kind.MACHINE_GPUS);
        Map<String, Double> machine = new HashMap<>();
        machine.put("cpu", cpus == null ? 0.0 : cpus);
        machine.put("memory", memory == null ? 0.0 : memory);
        machine.put("nvidia_com_gpu", gpus == null ? 0.0 : gpus);
        machine.values().forEach(v -> requireFinite(v, "machine capacity of " + node));
        return KubeUnits.amounts(machine);
    }

    private static Map<String, Double> byResource(List<Series> series, PromQueries.Kind kind, String node, boolean sum) {
        Map<String, Double> by = new HashMap<>();
        for (Series s : series) {
            String resource = s.labels().get("resource");
            if ("cpu".equals(resource) || "memory".equals(resource) || "nvidia_com_gpu".equals(resource)) {
                requireFinite(s.value(), kind.key() + " " + resource + " of " + node);
                if (sum) {
                    by.merge(resource, s.value(), Double::sum);
                } else {
                    by.put(resource, s.value());
                }
            }
        }
        return by;
    }

    /** The one value a per-node query gave; null when none. Two series for one node are ambiguous: rejected. */
    private static Double single(String node, NodeSeries n, PromQueries.Kind kind) {
        List<Series> series = n.of(kind);
        if (series.size() > 1) {
            throw new IllegalArgumentException("query " + kind.key() + " returned " + series.size()
                    + " series for the node (aggregate it by the node label)");
        }
        if (series.isEmpty() || !Double.isFinite(series.get(0).value())) {
            return null; // no data, or NaN (e.g. a 0/0): unknown, not zero
        }
        return series.get(0).value();
    }

    private static Double ratio(Double v) {
        return v == null ? null : KubeUnits.snapRatio(v);
    }

    private static void requireFinite(double v, String what) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(what + " is " + v);
        }
    }


    @Override
    public String describe() {
        return queryEndpoint.toString();
    }
}
