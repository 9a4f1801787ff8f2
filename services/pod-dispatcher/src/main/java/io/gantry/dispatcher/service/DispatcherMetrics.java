package io.gantry.dispatcher.service;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.dispatcher.config.SimulatedClusterConfig;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobPreempted;
import io.gantry.events.LifecycleEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The dispatcher's meters on /q/metrics. Labels are bounded: a failure cause or a state, never a job id. */
@ApplicationScoped
public class DispatcherMetrics {

    /**
     * Bucket bounds of the JCT histogram, in the cluster's seconds: from a minute to a quarter (Alibaba pods run
     * for weeks and more), dense where most training jobs end.
     */
    static final Duration[] JCT_BUCKETS = {Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
            Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2), Duration.ofHours(4), Duration.ofHours(8),
            Duration.ofHours(12), Duration.ofDays(1), Duration.ofDays(2), Duration.ofDays(4), Duration.ofDays(7),
            Duration.ofDays(14), Duration.ofDays(30), Duration.ofDays(90)};

    private final MeterRegistry registry;
    private final Counter started;
    private final Counter completed;
    private final Counter duplicates;
    private final Counter nothingToBind;
    private final Counter preempted;
    private final Counter preemptionsCarriedOut;
    private final Timer bindLatency;
    private final Map<String, Counter> failedByCause = new ConcurrentHashMap<>();
    private final Timer completionTime;
    /** Cluster seconds per wall-clock second: the simulated cluster's speedup, 1 for Kubernetes. */
    private final double timeScale;
    private final AtomicLong completedJobs = new AtomicLong();
    private final AtomicLong failedJobs = new AtomicLong();

    @Inject
    public DispatcherMetrics(MeterRegistry registry, ClusterBackend cluster, DispatcherConfig config,
                             SimulatedClusterConfig simulated) {
        this(registry, cluster, config.cluster() == DispatcherConfig.ClusterKind.SIMULATED ? simulated.speedup() : 1.0);
    }

    /** For a cluster that runs in real time (Kubernetes). */
    public DispatcherMetrics(MeterRegistry registry, ClusterBackend cluster) {
        this(registry, cluster, 1.0);
    }

    DispatcherMetrics(MeterRegistry registry, ClusterBackend cluster, double timeScale) {
        this.registry = registry;
        this.timeScale = timeScale;
        started = Counter.builder("gantry.dispatcher.jobs.started").description("Jobs bound and started").register(registry);
        completed = Counter.builder("gantry.dispatcher.jobs.completed").description("Jobs that ran to completion")
                .register(registry);
        duplicates = Counter.builder("gantry.dispatcher.duplicate.decisions")
                .description("Decisions for a job already started or finished, ignored").register(registry);
        nothingToBind = Counter.builder("gantry.dispatcher.stale.decisions")
                .description("Decisions for pods that were gone or already bound when the decision arrived")
                .register(registry);
        preempted = Counter.builder("gantry.dispatcher.jobs.preempted")
                .description("JobPreempted announced: stints stopped by a decision's preemption or evicted by the cluster")
                .register(registry);
        preemptionsCarriedOut = Counter.builder("gantry.dispatcher.preemptions")
                .description("Stops named by decisions' preempts, carried out before binding (the stint stopped, or "
                        + "had ended already)").register(registry);
        bindLatency = Timer.builder("gantry.dispatcher.bind.latency")
                .description("From the decision's occurredAt to the job's pods being bound")
                .publishPercentileHistogram().register(registry);
        Gauge.builder("gantry.dispatcher.running.jobs", cluster, ClusterBackend::runningJobs)
                .description("Jobs running on the cluster now").register(registry);
        // Every job the dispatcher handled is in one state: running now, or ended (since the dispatcher started).
        // Pending jobs are the scheduler's (gantry_scheduler_pending_jobs), rejected ones the tuner's and the
        // scheduler's (their rejection counters): neither ever reaches the dispatcher.
        Gauge.builder("gantry.jobs", cluster, ClusterBackend::runningJobs).tag("state", "running")
                .description("Jobs by lifecycle state, as the dispatcher saw them").register(registry);
        Gauge.builder("gantry.jobs", completedJobs, AtomicLong::get).tag("state", "completed")
                .description("Jobs by lifecycle state, as the dispatcher saw them").register(registry);
        Gauge.builder("gantry.jobs", failedJobs, AtomicLong::get).tag("state", "failed")
                .description("Jobs by lifecycle state, as the dispatcher saw them").register(registry);
        completionTime = Timer.builder("gantry.job.completion")
                .description("Job completion time (JCT): from submission to completion, in the cluster's time")
                .serviceLevelObjectives(JCT_BUCKETS).register(registry);
    }

    void bound(Duration sinceDecision) {
        bindLatency.record(sinceDecision.isNegative() ? Duration.ZERO : sinceDecision);
    }

    void started() {
        started.increment();
    }

    void preemptionCarriedOut() {
        preemptionsCarriedOut.increment();
    }

    void nothingToBind() {
        nothingToBind.increment();
    }

    void other(LifecycleEvent event) {
        if (event instanceof JobPreempted) {
            preempted.increment();
        }
    }

    void completed(JobCompleted job) {
        completed.increment();
        completedJobs.incrementAndGet();
        if (job.submittedAt() != null) {
            // The same figure as the replay summary's avg_jct_s: wall-clock time scaled to the cluster's clock.
            Duration wall = Duration.between(job.submittedAt(), job.occurredAt());
            completionTime.record(Duration.ofNanos(Math.round(Math.max(0, wall.toNanos()) * timeScale)));
        }
    }

    void failed(String cause) {
        failedByCause.computeIfAbsent(cause, c -> Counter.builder("gantry.dispatcher.jobs.failed")
                .description("Decisions that could not be carried out, by cause").tag("cause", c)
                .register(registry)).increment();
        failedJobs.incrementAndGet();
    }

    void duplicate() {
        duplicates.increment();
    }
}
