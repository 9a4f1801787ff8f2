package io.gantry.tuner.messaging;

import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.JobTuned;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Topics;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.TopicHistory;
import io.gantry.tuner.service.JobTuner;
import io.gantry.tuner.service.LiveRetunes;
import io.gantry.tuner.service.SubmissionLimits;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.ChannelRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Feeds the tuner's {@code RunnerHistory} with the job runner's {@code JobResult}s from {@code gantry.jobs.lifecycle},
 * and tells {@link SubmissionLimits} when a job ends (completed, failed, rejected), so it no longer counts as pending.
 * A real job's {@code JobProgress} at an epoch end goes to {@link LiveRetunes}' rule, and a re-tune it calls for is
 * written on {@code gantry.jobs.tuned} before the progress is acknowledged.
 *
 * <p>The tuner stores nothing: on start it rebuilds what it learnt from the topics (the training specs of
 * {@code gantry.jobs.tuned}, then every {@code JobResult} of the lifecycle topic), and only then lets the
 * {@code submitted} and {@code results} channels flow (both start paused), so no job is tuned with half a history.
 * Results the channel then delivers again are recognised by job id and attempt and change nothing.
 */
@ApplicationScoped
public class RunnerResultConsumer {

    private static final Logger LOG = Logger.getLogger(RunnerResultConsumer.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    static final String IN = "results";

    private final EventIntake intake;
    private final JobTuner tuner;
    private final ChannelRegistry channels;
    private final SubmissionLimits limits;
    private final LiveRetunes retunes;
    private final TunedPublisher tuned;
    private final String bootstrap;
    private final KafkaClientAuth kafkaAuth;

    public RunnerResultConsumer(EventIntake intake, JobTuner tuner, ChannelRegistry channels, SubmissionLimits limits,
                                LiveRetunes retunes, TunedPublisher tuned, MeterRegistry registry,
                                @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap,
                                KafkaClientAuth kafkaAuth) {
        this.intake = intake;
        this.tuner = tuner;
        this.channels = channels;
        this.limits = limits;
        this.retunes = retunes;
        this.tuned = tuned;
        this.bootstrap = bootstrap;
        this.kafkaAuth = kafkaAuth;
        Gauge.builder("gantry.tuner.measured.runs", tuner, t -> t.history().profile().size())
                .description("Measured real training runs the tuner knows (built-in profile and JobResults)")
                .register(registry);
    }

    void recover(@Observes StartupEvent ev) {
        long start = System.nanoTime();
        TopicHistory.forEach(bootstrap, kafkaAuth, Topics.JOBS_TUNED, JobTuned.class, READ_TIMEOUT, t -> {
            tuner.history().tuned(t);
            retunes.tuned(t, null);
        });
        AtomicInteger results = new AtomicInteger();
        TopicHistory.forEach(bootstrap, kafkaAuth, Topics.JOBS_LIFECYCLE, LifecycleEvent.class, READ_TIMEOUT, e -> {
            if (e instanceof JobResult r && tuner.history().result(r)) {
                results.incrementAndGet();
            } else if (e.terminal()) {
                retunes.ended(e.jobId());
            }
        });
        LOG.infof("job tuner: rebuilt from the topics in %d ms: %d JobResult(s), %d measured run(s) in all",
                (System.nanoTime() - start) / 1_000_000, results.get(), tuner.history().profile().size());
        channels.getPausable(SubmittedJobConsumer.IN).resume();
        channels.getPausable(IN).resume();
    }

    @Incoming(IN)
    public CompletionStage<Void> onLifecycle(Message<String> message) {
        return intake.handle(IN, message, () -> {
            LifecycleEvent event = intake.take(IN, message, LifecycleEvent.class);
            if (event instanceof JobResult r) {
                tuner.history().result(r);
            } else if (event instanceof JobProgress p) {
                Optional<JobTuned> update = retunes.atProgress(p);
                if (update.isPresent()) {
                    tuned.send(message, update.get());
                    return CompletableFuture.completedFuture(null);
                }
            } else if (event != null && event.terminal()) {
                limits.ended(event.jobId());
                retunes.ended(event.jobId());
            }
            return message.ack();
        });
    }
}
