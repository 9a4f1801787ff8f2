package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.sim.JobOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnlineTransitionsTest {

    /** Balance and fairness switched on, so the decision-time terms are compared too. */
    private static final SacSettings SETTINGS = new SacSettings(8, 4, 32, 0.99, 0.005, 3e-4, 3e-4, 0.2, 0.3, 32, 5000,
            100.0 * 3600, 0.5, 0.5);

    private static CandidateSet state(float marker) {
        float[] f = new float[2 * Features.COUNT];
        f[0] = marker;
        return new CandidateSet(f, new boolean[] {true, true}, new String[] {"x", null}, new int[] {0, -1}, 2);
    }

    private static TentativeCluster cluster(int busyGpus) {
        ClusterState c = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n1", Resources.ofGpus(8, 96, 384))));
        c.allocate("n0", Resources.ofGpus(busyGpus, 4, 16));
        return new TentativeCluster(c);
    }

    private static List<JobRequest> pending(double... submits) {
        List<JobRequest> out = new ArrayList<>();
        for (int i = 0; i < submits.length; i++) {
            out.add(new JobRequest("p" + i, "u" + i, 1, Resources.ofGpus(1, 4, 16), submits[i], 0, Double.NaN, Double.NaN));
        }
        return out;
    }

    /**
     * Jobs A [0, 50], B [10, 100], C [30, 40]; decisions at 5, 20, 20, 60. Online, the observations arrive
     * interleaved with two drains, in the order a live scheduler sees them; the rewards must be those of the
     * offline recorder, which sees the whole episode at once.
     */
    @Test
    void onlineRewardsAreTheOfflineRewardsOfTheSameDecisions() {
        double[] times = {5, 20, 20, 60};
        int[] busy = {0, 4, 6, 2};
        double[][] waiting = {{0}, {0, 10}, {10}, {10, 30}};
        CandidateSet[] states = {state(1), state(2), state(3), state(4)};

        EpisodeRecorder offline = new EpisodeRecorder(SETTINGS);
        for (int i = 0; i < times.length; i++) {
            offline.decided(times[i], states[i], i % 2, new double[] {0.5, 0.5}, cluster(busy[i]), pending(waiting[i]));
        }
        List<Transition> expected = offline.transitions(List.of(new JobOutcome("A", "u", 1, 0, 1, 50, 49, 0, 0, 0),
                new JobOutcome("B", "u", 1, 10, 11, 100, 89, 0, 0, 0), new JobOutcome("C", "u", 1, 30, 31, 40, 9, 0, 0, 0)));

        OnlineTransitions online = new OnlineTransitions(SETTINGS, 1000);
        online.jobArrived("A", 0);
        online.jobArrived("B", 10);
        online.decided(times[0], states[0], 0, new double[] {0.5, 0.5}, cluster(busy[0]), pending(waiting[0]));
        online.decided(times[1], states[1], 1, new double[] {0.5, 0.5}, cluster(busy[1]), pending(waiting[1]));
        List<Transition> got = new ArrayList<>(online.drain());
        assertEquals(1, got.size(), "decision 0 is complete once decision 1 exists, decision 1 is still open");
        online.jobArrived("C", 30);
        online.jobEnded("C", 40);
        online.decided(times[2], states[2], 0, new double[] {0.5, 0.5}, cluster(busy[2]), pending(waiting[2]));
        online.jobEnded("A", 50);
        online.decided(times[3], states[3], 1, new double[] {0.5, 0.5}, cluster(busy[3]), pending(waiting[3]));
        got.addAll(online.drain());
        assertEquals(3, got.size());
        assertEquals(List.of(), online.drain(), "nothing new, nothing out");

        for (int i = 0; i < 3; i++) {
            assertEquals(expected.get(i).reward(), got.get(i).reward(), 1e-12, "reward of decision " + i);
            assertEquals(expected.get(i).action(), got.get(i).action());
            assertSame(states[i], got.get(i).state());
            assertSame(states[i + 1], got.get(i).next());
            assertFalse(got.get(i).done(), "online learning has no episode end");
        }
        // 5..20: A for 15 s, B for 10 s; the terms at 5 (nothing allocated, one waiting tenant) add nothing.
        assertEquals(-25 / SETTINGS.rewardScaleJobSeconds(), got.get(0).reward(), 1e-15);
        // The fairness and balance terms are live: decision 1 (20..20) lasts 0 s, decision 2 (20..60) does not.
        assertEquals(0, got.get(1).reward(), 1e-15);
        assertEquals(1, online.jobsInSystem(), "A and C ended before 60 and are forgotten; B stays");
    }

    /** The reward is in the seconds given: A's 300 job-seconds, and the balance term of one busy node for 600 s. */
    @Test
    void rewardsAreInTheSecondsGiven() {
        OnlineTransitions o = new OnlineTransitions(SETTINGS, 100);
        o.jobArrived("A", 0);
        o.decided(100, state(1), 0, new double[] {1, 0}, cluster(1), pending(0));
        o.jobEnded("A", 400);
        o.decided(700, state(2), 0, new double[] {1, 0}, cluster(3), pending(0));
        assertEquals(SacReward.reward(SETTINGS, 300, new SacReward.Terms(0, 0), 600) - 0.5 * 1 * 600 / 3600.0,
                o.drain().get(0).reward(), 1e-9);
    }

    @Test
    void aFullInboxDropsAndCountsInsteadOfGrowing() {
        OnlineTransitions o = new OnlineTransitions(SETTINGS, 2);
        o.jobArrived("A", 0);
        o.jobArrived("B", 0);
        o.jobArrived("C", 0);
        assertEquals(1, o.dropped());
        o.drain();
        assertEquals(2, o.jobsInSystem());
        o.jobArrived("D", 0);
        assertEquals(1, o.dropped(), "draining made room again");
    }
}
