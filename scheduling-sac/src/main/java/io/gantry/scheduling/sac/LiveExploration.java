package io.gantry.scheduling.sac;

import java.util.Set;
import java.util.SplittableRandom;

/**
 * Bounded exploration for the live policy, which is otherwise greedy: a seeded share of its decisions samples from
 * π instead of taking the most probable candidate, so that the learner also sees what other choices lead to (its
 * transitions record the action taken; SAC learns off-policy from them as they are).
 *
 * <p>The bounds. Each decision is explored with probability {@code share}, drawn from a seeded stream, so over many
 * decisions the explored share is {@code share} (at most: barred decisions below stay greedy). A job that may not be
 * stopped once started ({@code SchedulingContext#pendingNotPreemptible}) is never the subject of exploration: when
 * the greedy choice would start such a job, the decision stays greedy (exploring would only risk keeping it from
 * where the policy wants it); otherwise the sample is drawn from π renormalised over the candidates of jobs that may
 * be stopped, and over "wait". So an explored decision never places a not-preemptible job, and a bad explored
 * placement can always be undone by a later preemption. A preemption candidate's victims are preemptible by
 * construction ({@link TentativeCluster}). What is not bounded: the later, greedy decisions of the same round see the
 * cluster an explored decision left, and "wait" ends the round for every job until the next one.
 *
 * <p>Called by the deciding policy on the scheduler's thread; the counts are read from any thread.
 */
public final class LiveExploration {

    private final double share;
    private final SplittableRandom rng;
    private volatile long decisions;
    private volatile long explored;
    private volatile long barred;

    /**
     * @param share of decisions explored, in [0, 1]; 0 never draws from {@code rng}, so decisions stay exactly greedy
     */
    public LiveExploration(double share, SplittableRandom rng) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be in [0, 1], got " + share);
        }
        this.share = share;
        this.rng = rng;
    }

    public double share() {
        return share;
    }

    /** Decisions taken so far. */
    public long decisions() {
        return decisions;
    }

    /** Decisions that sampled from π. */
    public long explored() {
        return explored;
    }

    /** Decisions drawn for exploration but kept greedy, because the greedy choice starts a not-preemptible job. */
    public long barred() {
        return barred;
    }

    /**
     * The candidate to take in {@code s}, given π's probabilities {@code p}.
     *
     * @param notPreemptible ids of the pending jobs that may not be stopped once started
     */
    synchronized int choose(double[] p, CandidateSet s, Set<String> notPreemptible) {
        int greedy = SacAgent.choose(p, s.mask(), null);
        decisions++;
        if (share == 0 || rng.nextDouble() >= share) {
            return greedy;
        }
        if (pinned(s, greedy, notPreemptible)) {
            barred++;
            return greedy;
        }
        double open = 0;
        for (int i = 0; i < s.size(); i++) {
            open += s.mask()[i] && !pinned(s, i, notPreemptible) ? p[i] : 0;
        }
        if (!(open > 0)) {
            barred++;
            return greedy;
        }
        double u = rng.nextDouble() * open;
        double acc = 0;
        int last = greedy;
        for (int i = 0; i < s.size(); i++) {
            if (s.mask()[i] && !pinned(s, i, notPreemptible)) {
                last = i;
                acc += p[i];
                if (u < acc) {
                    explored++;
                    return i;
                }
            }
        }
        explored++;
        return last; // rounding left u at the very top
    }

    private static boolean pinned(CandidateSet s, int candidate, Set<String> notPreemptible) {
        return !s.isWait(candidate) && notPreemptible.contains(s.jobIds()[candidate]);
    }
}
