package io.gantry.ingest.service;

import io.gantry.events.ResourceAmounts;
import java.util.Map;

/** Conversions every source shares: exporter conventions to Gantry's units and node names. */
public final class KubeUnits {

    public static final double BYTES_PER_MIB = 1024.0 * 1024.0;

    private KubeUnits() {
    }

    /**
     * Kubernetes resources ({@code cpu} cores, {@code memory} bytes, {@code nvidia_com_gpu} cards) in Gantry's units.
     * A resource not reported is one the node does not have (kube-state-metrics omits zero GPUs).
     */
    public static ResourceAmounts amounts(Map<String, Double> byResource) {
        return new ResourceAmounts(Math.round(byResource.getOrDefault("nvidia_com_gpu", 0.0) * 1000),
                Math.round(byResource.getOrDefault("cpu", 0.0) * 1000),
                Math.round(byResource.getOrDefault("memory", 0.0) / BYTES_PER_MIB));
    }

    /** node-exporter's {@code instance} is {@code host:port}; the node is the host. */
    public static String stripPort(String instance) {
        int colon = instance.lastIndexOf(':');
        return colon > 0 && colon < instance.length() - 1
                && instance.substring(colon + 1).chars().allMatch(Character::isDigit)
                ? instance.substring(0, colon) : instance;
    }

    /** Only float rounding may push a ratio just past 0 or 1; a wider excursion is left to NodeMetrics' validation. */
    public static double snapRatio(double v) {
        return Math.abs(v) < 1e-9 ? 0.0 : Math.abs(v - 1.0) < 1e-9 ? 1.0 : v;
    }
}
