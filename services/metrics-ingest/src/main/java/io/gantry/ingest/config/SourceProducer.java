package io.gantry.ingest.config;

import io.gantry.ingest.service.NodeMetricsSource;
import io.gantry.ingest.service.exposition.ExpositionSource;
import io.gantry.ingest.service.promql.PrometheusApiSource;
import io.gantry.ingest.service.promql.PromQueries;
import io.gantry.ingest.service.promql.PromQueries.Family;
import io.gantry.ingest.service.promql.PromQueries.Kind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.EnumMap;
import java.util.Map;

/** Picks the {@link NodeMetricsSource} named by {@code gantry.ingest.source}. */
@ApplicationScoped
public class SourceProducer {

    @Produces
    @ApplicationScoped
    NodeMetricsSource source(IngestConfig config) {
        return switch (config.source()) {
            case "exposition" -> new ExpositionSource(config.sourceUrl(), config.timeout());
            case "prometheus" -> new PrometheusApiSource(config.prometheus().url(), config.timeout(),
                    queries(config.prometheus()));
            default -> throw new IllegalArgumentException("gantry.ingest.source '" + config.source()
                    + "' is not supported; supported: exposition, prometheus");
        };
    }

    static PromQueries queries(IngestConfig.Prometheus p) {
        IngestConfig.Queries q = p.queries();
        Map<Kind, String> promql = new EnumMap<>(Kind.class);
        promql.put(Kind.CAPACITY, q.capacity());
        promql.put(Kind.REQUESTS, q.requests());
        promql.put(Kind.PODS, q.pods());
        promql.put(Kind.CPU, q.cpu());
        promql.put(Kind.MEMORY, q.memory());
        promql.put(Kind.GPU, q.gpu());
        promql.put(Kind.MACHINE_CPUS, q.machineCpus());
        promql.put(Kind.MACHINE_MEMORY, q.machineMemory());
        promql.put(Kind.MACHINE_GPUS, q.machineGpus());
        return new PromQueries(promql, Map.of(Family.KUBE_STATE_METRICS, p.kubeStateNodeLabel(),
                Family.NODE_EXPORTER, p.nodeExporterNodeLabel(), Family.DCGM, p.dcgmNodeLabel()));
    }
}
