package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * {@code sac} that keeps learning while it replays (bench's "trained + online learning" row): its own copy of the
 * agent decides greedily, its decisions and its jobs' arrivals and ends become transitions with the offline reward
 * ({@link OnlineTransitions}, as in the live learner), and after each round {@code updatesPerTransition} gradient
 * steps per new transition are taken on that same agent, so later decisions use the updated actor. Without a gate
 * it measures what learning online does, not what a gate lets through; with a {@link ReplayPromotion} the agent in
 * training never decides: a frozen copy does, replaced only when the live learner's gate promotes a newer copy.
 *
 * <p>The simulator tells a policy nothing about ends, so they are read off the rounds: a job in the system that is
 * neither pending nor running any more has finished, at the time its last stint would have ended (the same time the
 * live learner gets from the job's terminal event). Arrivals are the pending jobs' submit times. The true duration is
 * used only for that end time, never in a decision.
 */
public final class LearningReplayPolicy implements SchedulingPolicy {

    /** Transitions in the buffer before the first gradient step, as offline training's warm-up (2 batches). */
    private static final int WARMUP_BATCHES = 2;

    private final SacAgent agent;
    private final OnlineTransitions transitions;
    private SacPolicy deciding;
    /** Null without a gate. */
    private final ReplayPromotion promotion;
    private final ReplayBuffer buffer;
    private final SplittableRandom rng;
    private final double updatesPerTransition;
    private double updateDebt;
    private int updates;
    /** Jobs in the system → when their current stint ends (+∞ while pending). */
    private final Map<String, Double> inSystem = new HashMap<>();
    private final Map<String, JobRequest> requests = new HashMap<>();

    /**
     * @param agent a copy of its own: it is trained in place
     */
    public LearningReplayPolicy(SacAgent agent, double updatesPerTransition, long seed) {
        this(agent, updatesPerTransition, seed, null);
    }

    /**
     * @param agent     trained in place; with a gate it only learns, and {@code promotion}'s current version decides
     * @param promotion the gate, or null for none
     */
    public LearningReplayPolicy(SacAgent agent, double updatesPerTransition, long seed, ReplayPromotion promotion) {
        if (!(updatesPerTransition > 0) || Double.isInfinite(updatesPerTransition)) {
            throw new IllegalArgumentException("updatesPerTransition must be a finite number > 0, got "
                    + updatesPerTransition);
        }
        this.agent = agent;
        this.transitions = new OnlineTransitions(agent.settings(), Integer.MAX_VALUE);
        this.promotion = promotion;
        this.deciding = transitions.policy(promotion == null ? agent : promotion.current());
        this.buffer = new ReplayBuffer(agent.settings().replayCapacity());
        this.rng = new SplittableRandom(seed);
        this.updatesPerTransition = updatesPerTransition;
    }

    @Override
    public String name() {
        return SacPolicy.NAME;
    }

    /** Why the deciding policy fell back to its heuristic, if it did (then nothing is learned from that round). */
    public Optional<String> fallbackReason() {
        return deciding.fallbackReason();
    }

    /** Gradient steps taken so far. */
    public int updates() {
        return updates;
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        List<JobRequest> ended = observe(ctx);
        if (promotion != null && promotion.completed(ended, ctx.now(), agent)) {
            deciding = transitions.policy(promotion.current());
        }
        Decision d = deciding.decide(ctx);
        if (deciding.fallbackReason().isPresent()) {
            return d;
        }
        for (Placement p : d.placements()) {
            JobRequest job = ctx.pending().stream().filter(j -> j.id().equals(p.jobId())).findFirst().orElseThrow();
            inSystem.put(job.id(), ctx.now() + remainingS(job, ctx.attainedGpuSeconds(job)));
        }
        learn();
        return d;
    }

    /**
     * Reports arrivals and ends since the last round, and refreshes when each running job's stint ends.
     *
     * @return the jobs that ended, in the order they ended
     */
    private List<JobRequest> observe(SchedulingContext ctx) {
        Set<String> present = new HashSet<>();
        for (JobRequest j : ctx.pending()) {
            present.add(j.id());
            if (inSystem.putIfAbsent(j.id(), Double.POSITIVE_INFINITY) == null) {
                transitions.jobArrived(j.id(), j.submitTime());
                requests.put(j.id(), j);
            } else {
                inSystem.put(j.id(), Double.POSITIVE_INFINITY); // preempted: back in the queue
            }
        }
        for (RunningJob r : ctx.running()) {
            present.add(r.job().id());
            inSystem.put(r.job().id(), r.startedAt() + remainingS(r.job(), r.attainedGpuSecondsAtStart()));
        }
        List<Map.Entry<String, Double>> ends = new ArrayList<>();
        for (Iterator<Map.Entry<String, Double>> it = inSystem.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Double> e = it.next();
            if (!present.contains(e.getKey())) {
                ends.add(Map.entry(e.getKey(), Math.min(ctx.now(), e.getValue())));
                it.remove();
            }
        }
        ends.sort(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
        List<JobRequest> ended = new ArrayList<>(ends.size());
        for (Map.Entry<String, Double> e : ends) {
            transitions.jobEnded(e.getKey(), e.getValue());
            ended.add(requests.remove(e.getKey()));
        }
        return ended;
    }

    private static double remainingS(JobRequest job, double attainedGpuS) {
        double gpus = Math.max(1, job.gpus());
        return Double.isNaN(job.trueDurationS()) ? 0 : Math.max(0, job.trueDurationS() - attainedGpuS / gpus);
    }

    private void learn() {
        List<Transition> fresh = transitions.drain();
        for (Transition t : fresh) {
            buffer.add(t);
        }
        int batch = agent.settings().batchSize();
        if (buffer.size() < WARMUP_BATCHES * batch) {
            return;
        }
        for (updateDebt += updatesPerTransition * fresh.size(); updateDebt >= 1; updateDebt--) {
            agent.update(buffer.sample(batch, rng));
            updates++;
        }
    }
}
