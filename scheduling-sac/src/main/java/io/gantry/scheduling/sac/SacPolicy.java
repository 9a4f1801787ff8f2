package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.framework.VictimChooser;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The learned policy behind the ordinary plugin interface. A round is a sequence of decisions: build the
 * candidate set ({@link Features}), let the actor pick one candidate, place that job anchored on that node
 * (first stopping the running jobs the candidate names, if it is a preemption candidate), and repeat on the
 * updated free resources until no job can start. Preemptive, as the preemptive baselines are: the engine stops the
 * named jobs, which keep their progress; a running job not flagged preemptible is never a victim. Evaluation picks the
 * most probable candidate; training samples ({@link #exploring}); the live learner's policy samples a bounded share
 * of its decisions, never for a job that may not be stopped ({@link LiveExploration}).
 *
 * <p>If no checkpoint loads, or inference fails during a round, the policy says why once in the log,
 * reports it through {@link #fallbackReason()} and schedules with {@code kube-default} from then on:
 * a scheduler must keep scheduling.
 */
public final class SacPolicy implements SchedulingPolicy {

    public static final String NAME = "sac";
    /** The checkpoint shipped inside scheduling-sac (trained by the command in bench/README.md, SAC). */
    public static final String DEFAULT_CHECKPOINT = SacCheckpoint.CLASSPATH + "/sac/default";

    private static final System.Logger LOG = System.getLogger(SacPolicy.class.getName());
    // One loaded agent per location for the whole JVM: a bench creates a fresh policy per replay, and
    // reloading would leak native memory each time.
    private static final Map<String, Object> LOADED = new ConcurrentHashMap<>();

    /** Told about every decision a round makes, for training. */
    interface DecisionListener {
        void decided(double now, CandidateSet state, int action, double[] probabilities, TentativeCluster cluster,
                     List<JobRequest> pending);
    }

    private final SacAgent agent;
    private final Features features;
    private final SplittableRandom explore;
    /** Bounded live exploration, or null; only one of this and {@link #explore} is set. */
    private final LiveExploration liveExploration;
    private final DecisionListener listener;
    private final SchedulingPolicy fallback = new KubeDefaultPolicy();
    private final double restartCostS = SacConfig.current().restartCostS();
    /** What this policy has seen its users' jobs do, for the extra features; one per policy, so one per replay. */
    private final ObservedRuntimes seen = new ObservedRuntimes();
    private String fallbackReason;

    private SacPolicy(SacAgent agent, SplittableRandom explore, LiveExploration liveExploration,
                      DecisionListener listener, String fallbackReason) {
        this.agent = agent;
        this.features = agent == null ? null : agent.settings().features();
        this.explore = explore;
        this.liveExploration = liveExploration;
        this.listener = listener;
        this.fallbackReason = fallbackReason;
        if (fallbackReason != null) {
            LOG.log(System.Logger.Level.WARNING, "sac: " + fallbackReason + "; scheduling with kube-default instead");
        }
    }

    /** Greedy policy of an agent in memory. */
    public static SacPolicy greedy(SacAgent agent) {
        return new SacPolicy(agent, null, null, null, null);
    }

    /** Samples from π with {@code rng} and reports each decision (training). */
    static SacPolicy exploring(SacAgent agent, SplittableRandom rng, DecisionListener listener) {
        return new SacPolicy(agent, rng, null, listener, null);
    }

    /** Greedy but for the bounded share of decisions {@code exploration} samples; reports each decision (live). */
    static SacPolicy exploringLive(SacAgent agent, LiveExploration exploration, DecisionListener listener) {
        return new SacPolicy(agent, null, exploration, listener, null);
    }

    /** The policy {@code PolicyRegistry} hands out: the configured checkpoint ({@link SacConfig}), else the shipped one. */
    public static SacPolicy fromConfiguredCheckpoint() {
        return fromCheckpoint(SacConfig.current().checkpoint());
    }

    /** Greedy policy of a checkpoint; never throws: a checkpoint that does not load gives a kube-default fallback. */
    public static SacPolicy fromCheckpoint(String location) {
        Object loaded = LOADED.computeIfAbsent(location, loc -> {
            try {
                return SacCheckpoint.load(loc);
            } catch (IOException | RuntimeException | LinkageError e) {
                return "checkpoint " + loc + " could not be loaded: " + e.getMessage();
            }
        });
        return loaded instanceof SacAgent a ? greedy(a) : new SacPolicy(null, null, null, null, (String) loaded);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Why this policy is scheduling with kube-default, or empty while the learned policy is in charge. */
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(fallbackReason);
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        if (fallbackReason != null) {
            return fallback.decide(ctx);
        }
        try {
            synchronized (agent) {
                return round(ctx);
            }
        } catch (RuntimeException | LinkageError e) {
            fallbackReason = "inference failed (" + e + ")";
            LOG.log(System.Logger.Level.ERROR, "sac: " + fallbackReason + "; scheduling with kube-default from now on", e);
            return fallback.decide(ctx);
        }
    }

    private Decision round(SchedulingContext ctx) {
        if (agent.settings().extendedFeatures()) {
            seen.observe(ctx); // only the extra features read it
        }
        // Victims are the running jobs flagged preemptible (none where the caller may not stop jobs).
        TentativeCluster cluster = new TentativeCluster(ctx, true, restartCostS);
        RoundQueue pending = new RoundQueue(ctx.pending(), cluster);
        List<Placement> out = new ArrayList<>();
        List<String> preempted = new ArrayList<>();
        while (!pending.isEmpty()) {
            CandidateSet s = features.build(ctx.now(), pending, cluster, seen);
            if (!anyJobCandidate(s)) {
                break;
            }
            double[] p = agent.probabilities(s);
            int a = liveExploration != null ? liveExploration.choose(p, s, ctx.pendingNotPreemptible())
                    : SacAgent.choose(p, s.mask(), explore);
            if (listener != null) {
                listener.decided(ctx.now(), s, a, p, cluster, pending.waitingJobs());
            }
            if (s.isWait(a)) {
                break;
            }
            String jobId = s.jobIds()[a];
            JobRequest job = pending.take(jobId);
            if (s.features()[a * s.width() + Features.NEEDS_PREEMPTION_INDEX] > 0) {
                List<VictimChooser.Candidate> victims = cluster.victimsFor(job,
                        Features.priorUrgencyGpuS(job, cluster.attainedGpuS(job)));
                if (victims == null || victims.isEmpty()) {
                    throw new IllegalStateException("the actor chose to start " + jobId + " by preemption, but no"
                            + " running job can make room for it: the candidate set is inconsistent");
                }
                for (VictimChooser.Candidate v : victims) {
                    cluster.release(v);
                    preempted.add(v.id());
                }
            }
            List<String> nodes = cluster.place(job, s.nodes()[a]);
            if (nodes == null) {
                throw new IllegalStateException("the actor chose " + jobId + " on node " + s.nodes()[a]
                        + ", where it does not fit: masking is broken");
            }
            out.add(new Placement(jobId, nodes));
        }
        return new Decision(out, preempted, Double.NaN);
    }

    private static boolean anyJobCandidate(CandidateSet s) {
        for (int i = 0; i < s.waitIndex(); i++) {
            if (s.mask()[i]) {
                return true;
            }
        }
        return false;
    }
}
