package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns a live scheduler's own decisions and its jobs' arrivals and ends into transitions, with the same reward
 * as offline training ({@link SacReward}). Decision i becomes a transition once decision i + 1 exists: its next
 * state is that decision's candidate set, its reward the job-seconds in the system between the two decision
 * times. There is no episode end online, so no transition is terminal.
 *
 * <p>Threads: {@link #decided} (from the policy, on the scheduler's thread), {@link #jobArrived} and
 * {@link #jobEnded} only append to a lock-free inbox, so the decision path pays for an allocation and nothing
 * more; {@link #drain} does the work and must be called from one thread. The inbox is bounded: past
 * {@code inboxCapacity} observations it drops new ones and counts them ({@link #dropped}), so a learner that
 * stops draining cannot exhaust the scheduler's memory.
 *
 * <p>Times are seconds on the jobs' clock, the one durations are measured on (a cluster replayed at a speed-up
 * scales its wall clock first), so rewards are on the trace's clock, as in offline training. A job's end that
 * reaches the learner after the interval it fell in was already turned into a transition is counted as having
 * stayed to that interval's end.
 */
public final class OnlineTransitions implements SacPolicy.DecisionListener {

    private sealed interface Observation permits Decided, Arrived, Ended {
    }

    private record Decided(double time, CandidateSet state, int action, SacReward.Terms terms) implements Observation {
    }

    private record Arrived(String jobId, double time) implements Observation {
    }

    private record Ended(String jobId, double time) implements Observation {
    }

    private final SacSettings settings;
    private final int inboxCapacity;
    private final ConcurrentLinkedQueue<Observation> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inboxSize = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();

    // Owned by the draining thread.
    private Decided open;
    /** Jobs in the system: id → {submit, finish}, finish = +∞ until the job ends. */
    private final Map<String, double[]> jobs = new HashMap<>();

    public OnlineTransitions(SacSettings settings, int inboxCapacity) {
        if (inboxCapacity < 1) {
            throw new IllegalArgumentException("inboxCapacity must be at least 1, got " + inboxCapacity);
        }
        this.settings = settings;
        this.inboxCapacity = inboxCapacity;
    }

    /** The greedy policy of {@code agent} that reports each of its decisions here. */
    public SacPolicy policy(SacAgent agent) {
        return SacPolicy.exploring(agent, null, this);
    }

    /** As {@link #policy(SacAgent)}, but for the bounded share of decisions {@code exploration} samples. */
    public SacPolicy policy(SacAgent agent, LiveExploration exploration) {
        return SacPolicy.exploringLive(agent, exploration, this);
    }

    @Override
    public void decided(double now, CandidateSet state, int action, double[] probabilities, TentativeCluster cluster,
                        List<JobRequest> pending) {
        offer(new Decided(now, state, action, SacReward.measure(settings, now, cluster, pending)));
    }

    /** A job entered the system at {@code submitS} (its submission time, not when the scheduler heard of it). */
    public void jobArrived(String jobId, double submitS) {
        offer(new Arrived(jobId, submitS));
    }

    /** A job left the system (completed, failed or rejected) at {@code endS}. */
    public void jobEnded(String jobId, double endS) {
        offer(new Ended(jobId, endS));
    }

    private void offer(Observation o) {
        if (inboxSize.incrementAndGet() > inboxCapacity) {
            inboxSize.decrementAndGet();
            dropped.incrementAndGet();
            return;
        }
        inbox.add(o);
    }

    /** Observations refused because the inbox was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Jobs the learner counts as in the system now (pending or running). */
    public int jobsInSystem() {
        return jobs.size();
    }

    /** Takes in everything observed so far and returns the transitions that are now complete, in decision order. */
    public List<Transition> drain() {
        List<Decided> steps = new ArrayList<>();
        if (open != null) {
            steps.add(open);
        }
        for (Observation o; (o = inbox.poll()) != null; ) {
            inboxSize.decrementAndGet();
            if (o instanceof Arrived a) {
                jobs.putIfAbsent(a.jobId(), new double[] {a.time(), Double.POSITIVE_INFINITY});
            } else if (o instanceof Ended e) {
                double[] j = jobs.get(e.jobId());
                if (j != null) {
                    j[1] = Math.max(j[0], e.time());
                }
            } else if (o instanceof Decided d) {
                steps.add(d);
            }
        }
        if (steps.isEmpty()) {
            return List.of();
        }
        open = steps.get(steps.size() - 1);
        int n = steps.size() - 1;
        if (n == 0) {
            return List.of();
        }
        double[] boundary = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            // Decisions come from one thread in time order; max() keeps the sweep's boundaries ascending anyway.
            boundary[i] = i == 0 ? steps.get(0).time() : Math.max(boundary[i - 1], steps.get(i).time());
        }
        double first = boundary[0];
        double last = boundary[n];
        List<double[]> overlapping = new ArrayList<>();
        for (double[] j : jobs.values()) {
            if (j[0] < last && j[1] > first) {
                overlapping.add(j);
            }
        }
        double[] submits = new double[overlapping.size()];
        double[] finishes = new double[overlapping.size()];
        for (int k = 0; k < submits.length; k++) {
            submits[k] = overlapping.get(k)[0];
            finishes[k] = overlapping.get(k)[1];
        }
        double[] jobSeconds = SacReward.jobSecondsBetween(boundary, submits, finishes);
        List<Transition> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Decided s = steps.get(i);
            double r = SacReward.reward(settings, jobSeconds[i], s.terms(), boundary[i + 1] - boundary[i]);
            out.add(new Transition(s.state(), s.action(), r, steps.get(i + 1).state()));
        }
        // A job that ended before the last boundary cannot weigh on any later interval.
        for (Iterator<double[]> it = jobs.values().iterator(); it.hasNext(); ) {
            if (it.next()[1] <= last) {
                it.remove();
            }
        }
        return out;
    }
}
