package io.gantry.scheduler.service;

import io.gantry.events.JobRejected;
import io.gantry.events.SchedulingDecision;
import io.gantry.scheduler.config.SchedulerConfig;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs every change of {@link SchedulerState} on one thread, so the consumers of four topics never race, and
 * follows each change with a scheduling round. Rounds are coalesced: a burst of events costs one round.
 */
@ApplicationScoped
public class SchedulerLoop {

    private static final Logger LOG = Logger.getLogger(SchedulerLoop.class);

    /** Where the loop sends what a round decided. */
    public interface Sink {
        void decided(SchedulingDecision decision);

        void rejected(JobRejected rejection);
    }

    private final SchedulerState state;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "scheduler-loop"));
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    private final Timer roundTimer;
    private final Counter decisions;
    private final Counter rejections;
    private volatile Sink sink;

    public SchedulerLoop(SchedulerConfig config, MeterRegistry registry) {
        this.state = new SchedulerState(PolicyRegistry.create(config.policy()), config.policyVersion(),
                config.defaultPriority());
        this.roundTimer = Timer.builder("gantry.scheduler.round").description("Time to run one scheduling round")
                .publishPercentileHistogram().register(registry);
        this.decisions = Counter.builder("gantry.scheduler.decisions").description("Jobs placed by the policy")
                .tag("policy", config.policy()).register(registry);
        this.rejections = Counter.builder("gantry.scheduler.rejections")
                .description("Jobs rejected because they can never fit the cluster").register(registry);
        Gauge.builder("gantry.scheduler.running.jobs", this, l -> l.state.runningCount())
                .description("Jobs holding resources").register(registry);
        LOG.infof("scheduling with policy %s (%s)", config.policy(), config.policyVersion());
    }

    public void connect(Sink sink) {
        this.sink = sink;
    }

    /**
     * Applies {@code change} on the loop thread and, when it reports that it may change a decision, asks for a
     * round; completes once the change is applied.
     */
    public CompletableFuture<Void> apply(Predicate<SchedulerState> change) {
        return query(change::test).thenAccept(roundNeeded -> {
            if (roundNeeded) {
                requestRound();
            }
        });
    }

    /** Reads the state on the loop thread. */
    public <T> CompletableFuture<T> query(Function<SchedulerState, T> read) {
        return CompletableFuture.supplyAsync(() -> read.apply(state), thread);
    }

    private void requestRound() {
        if (roundQueued.compareAndSet(false, true)) {
            thread.execute(this::round);
        }
    }

    private void round() {
        roundQueued.set(false);
        Sink out = sink;
        if (out == null) {
            return;
        }
        try {
            long start = System.nanoTime();
            SchedulingOutcome outcome = state.schedule(Instant.now());
            roundTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            outcome.rejections().forEach(r -> {
                LOG.infof("rejected job %s: %s", r.jobId(), r.reason());
                out.rejected(r);
                rejections.increment();
            });
            outcome.decisions().forEach(d -> {
                out.decided(d);
                decisions.increment();
            });
        } catch (RuntimeException e) {
            // A broken round must not stop the loop: later events bring another round.
            LOG.error("scheduling round failed", e);
        }
    }

    void stop(@Observes ShutdownEvent ev) {
        thread.shutdownNow();
    }
}
