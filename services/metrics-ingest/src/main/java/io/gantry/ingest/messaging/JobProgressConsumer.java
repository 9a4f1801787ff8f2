package io.gantry.ingest.messaging;

import io.gantry.events.LifecycleEvent;
import io.gantry.ingest.config.IngestConfig;
import io.gantry.ingest.service.JobTrainingMetrics;
import io.gantry.service.support.EventIntake;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Reads {@code gantry.jobs.lifecycle} (own consumer group, from the latest offset: the gauges show what jobs report
 * now, nothing is replayed) into {@link JobTrainingMetrics}. A record that is not a valid lifecycle event goes to
 * {@code gantry.dlq.metrics-ingest} like any consumer's bad record; the consumer moves on.
 */
@ApplicationScoped
public class JobProgressConsumer {

    private static final Logger LOG = Logger.getLogger(JobProgressConsumer.class);
    static final String IN = "lifecycle";

    private final EventIntake intake;
    private final JobTrainingMetrics metrics;
    private final Duration sweepEvery;
    private ScheduledExecutorService sweeper;

    public JobProgressConsumer(EventIntake intake, IngestConfig config, MeterRegistry registry) {
        this.intake = intake;
        IngestConfig.Jobs jobs = config.jobs();
        this.metrics = new JobTrainingMetrics(registry, jobs.forgetAfter(), jobs.forgetSilentAfter(), jobs.maxJobs(),
                Clock.systemUTC());
        Duration half = jobs.forgetAfter().dividedBy(2);
        this.sweepEvery = half.compareTo(Duration.ofSeconds(10)) > 0 ? Duration.ofSeconds(10)
                : half.isZero() ? Duration.ofMillis(100) : half;
    }

    @Incoming(IN)
    public CompletionStage<Void> onLifecycle(Message<String> message) {
        return intake.consume(IN, message, LifecycleEvent.class, metrics::on);
    }

    void start(@Observes StartupEvent ev) {
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "job-metrics-sweeper");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                metrics.sweep();
            } catch (RuntimeException e) {
                LOG.error("removing ended jobs' series failed", e);
            }
        }, sweepEvery.toMillis(), sweepEvery.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent ev) {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }

    /** Jobs with series now (the admin status and tests). */
    public int trackedJobs() {
        return metrics.trackedJobs();
    }
}
