package io.gantry.ingest.service.promql;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The PromQL the {@link PrometheusApiSource} evaluates at each read, one per {@link Kind}, and the label that names
 * the node in the results of each exporter family. Every query must return an instant vector with at most one series
 * per node (per node and {@code resource} for capacity and requests).
 */
public record PromQueries(Map<Kind, String> promql, Map<Family, String> nodeLabels) {

    /** Who produces the series, which decides the label naming the node. */
    public enum Family {
        KUBE_STATE_METRICS, NODE_EXPORTER, DCGM
    }

    public enum Kind {
        /** cores, bytes and GPUs by {@code resource}. */
        CAPACITY("capacity", Family.KUBE_STATE_METRICS),
        /** requested cores, bytes and GPUs of the pods bound to the node, by {@code resource}. */
        REQUESTS("requests", Family.KUBE_STATE_METRICS),
        /** pods bound to the node. */
        PODS("pods", Family.KUBE_STATE_METRICS),
        /** busy fraction of all CPUs, 0..1. */
        CPU("cpu", Family.NODE_EXPORTER),
        /** used fraction of memory, 0..1. */
        MEMORY("memory", Family.NODE_EXPORTER),
        /** mean GPU utilisation, 0..1. */
        GPU("gpu", Family.DCGM),
        /** CPUs of the machine: the capacity of a node kube-state-metrics does not report. */
        MACHINE_CPUS("machine-cpus", Family.NODE_EXPORTER),
        /** memory bytes of the machine, likewise. */
        MACHINE_MEMORY("machine-memory", Family.NODE_EXPORTER),
        /** GPUs of the machine, likewise. */
        MACHINE_GPUS("machine-gpus", Family.DCGM);

        private final String key;
        private final Family family;

        Kind(String key, Family family) {
            this.key = key;
            this.family = family;
        }

        /** The configuration key, {@code gantry.ingest.prometheus.queries.<key>}. */
        public String key() {
            return key;
        }

        public Family family() {
            return family;
        }
    }

    public PromQueries {
        promql = Map.copyOf(new EnumMap<>(promql));
        nodeLabels = Map.copyOf(new EnumMap<>(nodeLabels));
        for (Kind k : Kind.values()) {
            if (promql.get(k) == null || promql.get(k).isBlank()) {
                throw new IllegalArgumentException("no PromQL for " + k.key());
            }
        }
        for (Family f : Family.values()) {
            Objects.requireNonNull(nodeLabels.get(f), "no node label for " + f);
        }
    }

    public String promql(Kind kind) {
        return promql.get(kind);
    }

    public String nodeLabel(Kind kind) {
        return nodeLabels.get(kind.family());
    }
}
