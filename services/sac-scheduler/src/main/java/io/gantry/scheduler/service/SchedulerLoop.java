package io.gantry.scheduler.service;

import io.gantry.events.JobRejected;
import io.gantry.events.SchedulingDecision;
import io.gantry.scheduler.config.SchedulerConfig;
import io.gantry.scheduling.model.NodeSpec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs every change of {@link LiveEngine} on one thread, so the consumers of four topics never race, and
 * follows each change with a scheduling round. Rounds are coalesced: a burst of events costs one round, because a
 * change asks for a round only once no round is queued, and the round it queues runs after every change queued
 * before it. The consumers hand changes over without waiting for them (up to {@link #BACKLOG_LIMIT} not yet
 * applied), so that a round can take many events: waiting for each would make a round per event. When the
 * policy asks for a round at a later time ({@code Decision.wakeAt}, e.g. Tiresias demoting a running job), a timer
 * brings that round even if no event comes, as the simulator does.
 */
@ApplicationScoped
public class SchedulerLoop {

    private static final Logger LOG = Logger.getLogger(SchedulerLoop.class);

    /** Where the loop sends what a round decided. */
    public interface Sink {
        void decided(SchedulingDecision decision);

        void rejected(JobRejected rejection);
    }

    private final LiveEngine state;
    /** The policy that decides, with its version; only touched on the loop thread after construction. */
    private OnlineLearner.LivePolicy inUse;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
            r -> new Thread(r, "scheduler-loop"));
    /** The wake-up a timer is set for (a policy's {@code Decision.wakeAt}); only touched on the loop thread. */
    private Instant wakeTimer;
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    /**
     * Changes handed over but not yet applied, beyond which consumers wait for theirs ({@link #saturated}): a
     * bound on memory and on how stale an acked offset can be, far above what one round's wait gathers.
     */
    static final int BACKLOG_LIMIT = 2_000;
    private final AtomicInteger backlog = new AtomicInteger();
    private final Timer roundTimer;
    private final Counter decisions;
    private final Counter rejections;
    private final Counter preemptions;
    private final Counter resizes;
    private volatile Sink sink;

    public SchedulerLoop(SchedulerConfig config, MeterRegistry registry, OnlineLearner learner) {
        this.inUse = learner.initialPolicy();
        this.state = new LiveEngine(inUse.policy(), inUse.version(), config.defaultPriority(),
                new JobClock(config.timeScale()), config.preemption(), GpuPlacementSetup.create(config));
        this.roundTimer = Timer.builder("gantry.scheduler.round").description("Time to run one scheduling round")
                .publishPercentileHistogram().register(registry);
        this.decisions = Counter.builder("gantry.scheduler.decisions").description("Jobs placed by the policy")
                .tag("policy", config.policy()).register(registry);
        this.preemptions = Counter.builder("gantry.scheduler.preemptions")
                .description("Running jobs the policy stopped to make room (carried in a decision)").register(registry);
        this.resizes = Counter.builder("gantry.scheduler.resizes")
                .description("Running jobs re-sized: a re-tune asked for other room, and the job's next attempt, placed "
                        + "with it, stopped the running one").register(registry);
        this.rejections = Counter.builder("gantry.scheduler.rejections")
                .description("Jobs rejected because they can never fit the cluster").register(registry);
        Gauge.builder("gantry.scheduler.running.jobs", this, l -> l.state.runningCount())
                .description("Jobs holding resources").register(registry);
        LOG.infof("scheduling with policy %s (%s), preemption %s, job clock x%s, GPU placement %s", config.policy(),
                inUse.version(), config.preemption() ? "on" : "off", config.timeScale(), config.gpuPlacement());
        learner.attach(new OnlineLearner.Scheduler() {
            @Override
            public List<NodeSpec> nodes() {
                return nodeSpecs();
            }

            @Override
            public void use(OnlineLearner.LivePolicy policy) {
                swap(policy);
            }
        });
    }

    private List<NodeSpec> nodeSpecs() {
        try {
            return query(s -> s.nodes().stream().map(n -> new NodeSpec(n.name(), n.capacity())).toList())
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("could not read the nodes for the learner", e);
            return List.of();
        }
    }

    /** A promoted version takes over between two rounds; the one it replaces is closed once nothing uses it. */
    private void swap(OnlineLearner.LivePolicy next) {
        apply(s -> {
            s.usePolicy(next.policy(), next.version());
            OnlineLearner.LivePolicy old = inUse;
            inUse = next;
            if (old.resources() != null) {
                try {
                    old.resources().close();
                } catch (Exception e) {
                    LOG.warn("closing the replaced policy failed", e);
                }
            }
            LOG.infof("scheduling with policy %s (%s)", s.policyName(), next.version());
            return true;
        });
    }

    public void connect(Sink sink) {
        this.sink = sink;
    }

    /**
     * Applies {@code change} on the loop thread and, when it reports that it may change a decision, asks for a
     * round; completes once the change is applied.
     */
    public CompletableFuture<Void> apply(Predicate<LiveEngine> change) {
        return query(change::test).thenAccept(roundNeeded -> {
            if (roundNeeded) {
                requestRound();
            }
        });
    }

    /** Reads the state on the loop thread. */
    public <T> CompletableFuture<T> query(Function<LiveEngine, T> read) {
        backlog.incrementAndGet();
        return CompletableFuture.supplyAsync(() -> {
            backlog.decrementAndGet();
            return read.apply(state);
        }, thread);
    }

    /** True when {@link #BACKLOG_LIMIT} changes wait for the loop: a consumer should then wait for its own. */
    public boolean saturated() {
        return backlog.get() >= BACKLOG_LIMIT;
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
                long own = d.preempts().stream().filter(p -> p.jobId().equals(d.jobId())).count();
                resizes.increment(own);
                preemptions.increment(d.preempts().size() - own);
            });
            armWakeTimer();
        } catch (RuntimeException e) {
            // A broken round must not stop the loop: later events bring another round.
            LOG.error("scheduling round failed", e);
        }
    }

    /** Sets a timer for the engine's next wake-up, unless one is already set for that instant. */
    private void armWakeTimer() {
        Instant wake = state.wakeAt();
        if (wake == null || wake.equals(wakeTimer)) {
            return;
        }
        wakeTimer = wake;
        long delayMs = Math.max(0, java.time.Duration.between(Instant.now(), wake).toMillis()) + 1;
        thread.schedule(() -> {
            if (wake.equals(wakeTimer)) {
                wakeTimer = null;
            }
            requestRound();
        }, delayMs, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent ev) {
        thread.shutdownNow();
    }
}
