package io.gantry.scheduler.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.PolicyUpdated;
import io.gantry.scheduler.config.LearnerConfig;
import io.gantry.scheduler.config.SacPolicyConfig;
import io.gantry.scheduler.config.SchedulerConfig;
import io.gantry.scheduler.persistence.PolicyVersions;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.sac.LiveExploration;
import io.gantry.scheduling.sac.OnlineTransitions;
import io.gantry.scheduling.sac.PromotionGate;
import io.gantry.scheduling.sac.ReplayBuffer;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import io.gantry.scheduling.sac.SacConfig;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.sac.Transition;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Online learning of the {@code sac} policy. The policy that decides reports each decision
 * ({@link OnlineTransitions}); the consumers report each job's arrival and end. One background thread ("sac-learner",
 * DJL on one thread) turns them into transitions with the offline reward, trains its own copy of the agent, and
 * every {@code updates-per-check} gradient steps replays the last completed jobs, cut into {@code check-windows}
 * windows, through that candidate and through the version in charge ({@link PromotionGate}). A candidate
 * significantly better (one-sided exact signed-rank test over the windows at {@code check-alpha}) and better by at
 * least {@code check-min-improvement} is saved as the next version ({@link PolicyVersions}), handed to the
 * scheduler, which swaps it in between two rounds, and announced with {@code PolicyUpdated}; any other is counted
 * as rejected and trained on. The deciding policy is greedy but for a seeded {@code explore-share} of its decisions,
 * which sample from it, never for a job submitted as not preemptible ({@link LiveExploration}). Nothing of this runs
 * on the scheduler's thread but the report of a decision, which only appends to a queue. Under another policy this
 * does nothing but hand out that policy.
 *
 * <p>The check replays recent history, not a trace file: it measures the candidate on the jobs this cluster
 * actually runs, both versions see exactly the same jobs and nodes, and it needs nothing a real deployment
 * lacks. At start the latest promoted version is loaded (else the configured checkpoint, version 0); the replay
 * buffer and the optimiser's state are not kept across restarts.
 */
@ApplicationScoped
public class OnlineLearner {

    private static final Logger LOG = Logger.getLogger(OnlineLearner.class);
    /** What decides and the version its decisions name; {@code resources} are closed once it is replaced. */
    public record LivePolicy(SchedulingPolicy policy, String version, AutoCloseable resources) {
    }

    /** The scheduler as the learner needs it: the nodes to replay on, and where a promoted version goes. */
    public interface Scheduler {
        List<NodeSpec> nodes();

        void use(LivePolicy policy);
    }

    /** Where {@code PolicyUpdated} goes. */
    public interface Publisher {
        void policyUpdated(PolicyUpdated event);
    }

    private final LearnerConfig config;
    private final JobClock clock;
    private LivePolicy initial;
    private volatile Scheduler scheduler;
    private volatile Publisher publisher;

    // Set only while learning; used only by the learner thread after start-up.
    private OnlineTransitions transitions;
    private JobHistory history;
    private PolicyVersions versions;
    /** The configured checkpoint: version 0 when no promoted version loads. */
    private final String checkpoint;
    private SacAgent trainee;
    private SacAgent current;
    private String startedFrom;
    private int currentNumber;
    private ReplayBuffer buffer;
    private SplittableRandom rng;
    private PromotionGate.Settings gate;
    /** Shared by every version that decides, so the explored share holds across promotions. */
    private LiveExploration exploration;
    private double updateDebt;
    private int updatesSinceCheck;
    private long droppedReported;
    private ScheduledExecutorService thread;

    private LearnerMeters meters;

    /** As the service runs it: the sac settings of its configuration are the ones every sac policy uses. */
    @Inject
    public OnlineLearner(SchedulerConfig schedulerConfig, LearnerConfig config, SacPolicyConfig sac,
                         MeterRegistry registry) {
        this(schedulerConfig, config, applied(sac), registry);
    }

    private static SacConfig applied(SacPolicyConfig sac) {
        SacConfig c = new SacConfig(sac.checkpoint().filter(s -> !s.isBlank()).orElse(SacPolicy.DEFAULT_CHECKPOINT),
                sac.restartCostS());
        SacConfig.use(c);
        return c;
    }

    /** With the sac settings already in use ({@link SacConfig#current()}). */
    public OnlineLearner(SchedulerConfig schedulerConfig, LearnerConfig config, MeterRegistry registry) {
        this(schedulerConfig, config, SacConfig.current(), registry);
    }

    private OnlineLearner(SchedulerConfig schedulerConfig, LearnerConfig config, SacConfig sac, MeterRegistry registry) {
        this.checkpoint = sac.checkpoint();
        this.config = config;
        this.clock = new JobClock(schedulerConfig.timeScale());
        if (!SacPolicy.NAME.equals(schedulerConfig.policy())) {
            initial = new LivePolicy(PolicyRegistry.create(schedulerConfig.policy()), schedulerConfig.policyVersion(),
                    null);
            return;
        }
        LearnerConfigCheck.validate(config);
        meters = new LearnerMeters(registry);
        versions = new PolicyVersions(Path.of(config.dataDir()));
        for (Start start : startingPoints()) {
            try {
                loadAgents(start);
                return;
            } catch (IOException | RuntimeException | LinkageError e) {
                LOG.errorf("sac: %s (%s) does not load: %s", start.location(), PolicyVersions.name(start.number()),
                        e.getMessage());
            }
        }
        // Nothing loads: SacPolicy says why and schedules with kube-default; there is nothing to learn with.
        initial = new LivePolicy(SacPolicy.fromCheckpoint(checkpoint), PolicyVersions.name(0), null);
        LOG.error("sac: no checkpoint loads; online learning is off");
    }

    private record Start(String location, int number) {
    }

    /** The latest promoted version, then the configured checkpoint as version 0. */
    private List<Start> startingPoints() {
        List<Start> out = new ArrayList<>();
        try {
            Optional<PolicyVersions.Version> promoted = versions.latestPromoted();
            promoted.ifPresent(v -> out.add(new Start(v.dir().toString(), v.number())));
        } catch (IOException e) {
            LOG.errorf("sac: cannot read the promoted version under %s: %s", versions.root(), e.getMessage());
        }
        out.add(new Start(checkpoint, 0));
        return out;
    }

    private void loadAgents(Start start) throws IOException {
        SacAgent deciding = SacCheckpoint.load(start.location());
        String version = PolicyVersions.name(start.number());
        meters.policyVersion = start.number();
        if (!config.enabled()) {
            initial = new LivePolicy(SacPolicy.greedy(deciding), version, deciding);
            LOG.infof("sac: deciding with %s from %s; online learning is off", version, start.location());
            return;
        }
        try {
            trainee = SacCheckpoint.load(start.location());
            current = SacCheckpoint.load(start.location());
        } catch (IOException | RuntimeException | LinkageError e) {
            deciding.close();
            if (trainee != null) {
                trainee.close();
                trainee = null;
            }
            throw e;
        }
        startedFrom = start.location();
        currentNumber = start.number();
        // Decisions, arrivals and ends all reach the transitions on the jobs' clock.
        transitions = new OnlineTransitions(deciding.settings(), config.inboxCapacity());
        history = new JobHistory(config.checkWindowJobs(), clock);
        buffer = new ReplayBuffer(config.replayCapacity());
        rng = new SplittableRandom(config.seed());
        gate = new PromotionGate.Settings(config.checkWindows(), config.checkAlpha(), config.checkMinImprovement());
        // A stream of its own, so exploring changes nothing in the buffer's sampling.
        exploration = new LiveExploration(config.exploreShare(), new SplittableRandom(config.seed()).split());
        meters.exploration = exploration;
        initial = new LivePolicy(transitions.policy(deciding, exploration), version, deciding);
        LOG.infof("sac: deciding with %s from %s; learning online into %s", version, start.location(),
                versions.root());
    }

    /** The policy that decides until a promotion. */
    public LivePolicy initialPolicy() {
        return initial;
    }

    public void attach(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    public void connect(Publisher publisher) {
        this.publisher = publisher;
    }

    private boolean learning() {
        return transitions != null;
    }

    /** A job entered the queue (called once per job). */
    public void jobTuned(JobTuned job) {
        if (learning()) {
            transitions.jobArrived(job.jobId(), clock.seconds(job.submittedAt()));
            history.tuned(job);
        }
    }

    public void lifecycle(LifecycleEvent e) {
        if (!learning()) {
            return;
        }
        if (e.terminal()) {
            transitions.jobEnded(e.jobId(), clock.seconds(e.occurredAt()));
        }
        history.lifecycle(e); // preemptions too: they hold part of a job's run time
    }

    void start(@Observes StartupEvent ev) {
        if (!learning()) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sac-learner");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        });
        long ms = config.updateInterval().toMillis();
        thread.scheduleWithFixedDelay(this::tickSafely, ms, ms, TimeUnit.MILLISECONDS);
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException | LinkageError e) {
            // A failed interval must not end the schedule: the next one starts over from the buffer.
            LOG.error("sac learner: interval failed", e);
        }
    }

    /** One interval: take in new transitions, train on them, and check the candidate when due. */
    void tick() {
        List<Transition> fresh = transitions.drain();
        if (transitions.dropped() > droppedReported) {
            LOG.warnf("sac learner: %d observations dropped so far (inbox full)", transitions.dropped());
            droppedReported = transitions.dropped();
        }
        fresh.forEach(buffer::add);
        meters.tookIn(fresh);
        if (buffer.size() < Math.max(config.minTransitions(), config.batchSize())) {
            return;
        }
        updateDebt = Math.min(updateDebt + config.updatesPerTransition() * fresh.size(),
                10.0 * config.maxUpdatesPerInterval());
        int steps = (int) Math.min(Math.floor(updateDebt), config.maxUpdatesPerInterval());
        for (int i = 0; i < steps; i++) {
            SacAgent.UpdateStats s = trainee.update(buffer.sample(config.batchSize(), rng));
            updateDebt--;
            updatesSinceCheck++;
            meters.updates.increment();
            meters.criticLoss = s.criticLoss();
            meters.actorLoss = s.actorLoss();
            meters.alpha = s.alpha();
        }
        if (updatesSinceCheck >= config.updatesPerCheck()) {
            check();
        }
    }

    private void check() {
        List<JobRequest> jobs = history.recentCompleted();
        if (jobs.size() < config.checkMinJobs()) {
            LOG.debugf("sac learner: check postponed (%d completed jobs known, %d needed)", jobs.size(),
                    config.checkMinJobs());
            return;
        }
        // Asked only once a check is due: reading the nodes is a (small) task on the scheduler's thread.
        Scheduler s = scheduler;
        List<NodeSpec> nodes = s == null ? List.of() : s.nodes();
        if (nodes.isEmpty()) {
            LOG.debug("sac learner: check postponed (no nodes known yet)");
            return;
        }
        updatesSinceCheck = 0;
        String currentName = PolicyVersions.name(currentNumber);
        PromotionGate.Result r;
        try {
            r = PromotionGate.check(trainee, current, jobs, nodes, config.checkLoad(), gate);
        } catch (IllegalArgumentException e) {
            LOG.infof("sac learner: check postponed: %s", e.getMessage());
            return;
        } catch (IllegalStateException e) {
            meters.rejections.increment();
            LOG.warnf("sac learner: candidate rejected: %s", e.getMessage());
            return;
        }
        meters.checkPValue = r.pValue();
        meters.checkImprovement = r.improvement();
        String figures = String.format(Locale.ROOT, "replay check on the last %d completed jobs in %d windows at load"
                        + " %.2f: mean window avg JCT %.1f s vs %.1f s for %s, %s", r.jobs(), r.windows().size(),
                r.load(), r.candidateAvgJctS(), r.currentAvgJctS(), currentName, r.reason());
        if (!r.promote()) {
            meters.rejections.increment();
            LOG.infof("sac learner: candidate rejected, %s", figures);
            return;
        }
        try {
            promote(r, currentName, figures);
        } catch (IOException | RuntimeException e) {
            meters.rejections.increment();
            LOG.errorf(e, "sac learner: the candidate passed the check but could not be promoted");
        }
    }

    private void promote(PromotionGate.Result r, String previous, String reason) throws IOException {
        int number = Math.max(versions.highestNumber(), currentNumber) + 1;
        String name = PolicyVersions.name(number);
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("version", name);
        info.put("previous_version", previous);
        info.put("started_from", startedFrom);
        info.put("online_updates", meters.updates.count());
        info.put("online_transitions", meters.transitions.count());
        info.put("check", reason);
        info.put("promoted_at", Instant.now().toString());
        PolicyVersions.Version saved = versions.promote(number, trainee, info, config.keepVersions());
        // Load what was written, so the version that decides is exactly the one on disk.
        SacAgent deciding = SacCheckpoint.load(saved.dir().toString());
        SacAgent copy;
        try {
            copy = SacCheckpoint.load(saved.dir().toString());
        } catch (IOException | RuntimeException e) {
            deciding.close();
            throw e;
        }
        Scheduler s = scheduler;
        if (s != null) {
            s.use(new LivePolicy(transitions.policy(deciding, exploration), name, deciding));
        } else {
            deciding.close();
        }
        current.close();
        current = copy;
        currentNumber = number;
        meters.policyVersion = number;
        meters.promotions.increment();
        LOG.infof("sac learner: promoted %s, %s", name, reason);
        Publisher p = publisher;
        if (p != null) {
            p.policyUpdated(new PolicyUpdated(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(),
                    SacPolicy.NAME, name, previous, Map.of("avg_jct_s", r.candidateAvgJctS(), "baseline_avg_jct_s",
                    r.currentAvgJctS(), "jobs", (double) r.jobs(), "load", r.load(), "p_value", r.pValue(),
                    "improvement", r.improvement(), "windows", (double) r.windows().size()), reason));
        }
    }

    void stop(@Observes ShutdownEvent ev) {
        if (thread == null) {
            return;
        }
        thread.shutdownNow();
        try {
            if (thread.awaitTermination(10, TimeUnit.SECONDS)) {
                trainee.close();
                current.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
