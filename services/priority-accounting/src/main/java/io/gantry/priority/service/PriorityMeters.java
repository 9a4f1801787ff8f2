package io.gantry.priority.service;

import io.gantry.scheduling.fairness.DynamicPriority;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Priority accounting's Prometheus metrics: {@code gantry_priority_user_priority{user}} and
 * {@code gantry_priority_user_usage_gpu_seconds{user}} (decayed GPU-seconds), both as of the last recomputation,
 * {@code gantry_priority_events_applied_total} (lifecycle and submission events that changed the ledger; duplicates
 * are not counted) and {@code gantry_priority_recompute_seconds} (time to recompute every user's priority). The user
 * label is bounded by the users the service knows (admin-created or seen in events), which are tenants.
 */
@ApplicationScoped
public class PriorityMeters {

    private final MeterRegistry registry;
    private final Counter eventsApplied;
    private final Timer recompute;
    /** Per user: [priority, decayed GPU-seconds] of the last recomputation, read by the gauges. */
    private final Map<String, double[]> latest = new ConcurrentHashMap<>();

    public PriorityMeters(MeterRegistry registry) {
        this.registry = registry;
        this.eventsApplied = Counter.builder("gantry.priority.events.applied")
                .description("Events that changed the usage ledger or the waiting set (duplicates excluded)")
                .register(registry);
        this.recompute = Timer.builder("gantry.priority.recompute")
                .description("Time to recompute every user's dynamic priority").register(registry);
    }

    public void eventApplied() {
        eventsApplied.increment();
    }

    /** Records how long a recomputation took and the priorities and decayed usage it found. */
    public void recomputed(Collection<DynamicPriority.Assessment> assessments, long nanos) {
        recompute.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        for (DynamicPriority.Assessment a : assessments) {
            double[] values = latest.computeIfAbsent(a.tenant(), this::register);
            values[0] = a.priority();
            values[1] = a.decayedGpuSeconds();
        }
    }

    private double[] register(String user) {
        double[] values = new double[2];
        Gauge.builder("gantry.priority.user.priority", values, v -> v[0])
                .description("A user's dynamic priority: base + fair-share term").tag("user", user)
                .strongReference(true).register(registry);
        Gauge.builder("gantry.priority.user.usage.gpu.seconds", values, v -> v[1])
                .description("A user's GPU-seconds decayed with the usage half-life").tag("user", user)
                .strongReference(true).register(registry);
        return values;
    }
}
