package io.gantry.dispatcher.service;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.events.JobPreempted;
import io.gantry.events.LifecycleEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The dispatcher's meters on /q/metrics. Labels are bounded: a failure cause, never a job id. */
@ApplicationScoped
public class DispatcherMetrics {

    private final MeterRegistry registry;
    private final Counter started;
    private final Counter completed;
    private final Counter duplicates;
    private final Counter nothingToBind;
    private final Counter preempted;
    private final Timer bindLatency;
    private final Map<String, Counter> failedByCause = new ConcurrentHashMap<>();

    public DispatcherMetrics(MeterRegistry registry, ClusterBackend cluster) {
        this.registry = registry;
        started = Counter.builder("gantry.dispatcher.jobs.started").description("Jobs bound and started").register(registry);
        completed = Counter.builder("gantry.dispatcher.jobs.completed").description("Jobs that ran to completion")
                .register(registry);
        duplicates = Counter.builder("gantry.dispatcher.duplicate.decisions")
                .description("Decisions for a job already started or finished, ignored").register(registry);
        nothingToBind = Counter.builder("gantry.dispatcher.stale.decisions")
                .description("Decisions for pods that were gone or already bound when the decision arrived")
                .register(registry);
        preempted = Counter.builder("gantry.dispatcher.jobs.preempted")
                .description("Jobs whose pods were evicted or preempted by the cluster").register(registry);
        bindLatency = Timer.builder("gantry.dispatcher.bind.latency")
                .description("From the decision's occurredAt to the job's pods being bound")
                .publishPercentileHistogram().register(registry);
        Gauge.builder("gantry.dispatcher.running.jobs", cluster, ClusterBackend::runningJobs)
                .description("Jobs running on the cluster now").register(registry);
    }

    void bound(Duration sinceDecision) {
        bindLatency.record(sinceDecision.isNegative() ? Duration.ZERO : sinceDecision);
    }

    void started() {
        started.increment();
    }

    void nothingToBind() {
        nothingToBind.increment();
    }

    void other(LifecycleEvent event) {
        if (event instanceof JobPreempted) {
            preempted.increment();
        }
    }

    void completed() {
        completed.increment();
    }

    void failed(String cause) {
        failedByCause.computeIfAbsent(cause, c -> Counter.builder("gantry.dispatcher.jobs.failed")
                .description("Decisions that could not be carried out, by cause").tag("cause", c)
                .register(registry)).increment();
    }

    void duplicate() {
        duplicates.increment();
    }
}
