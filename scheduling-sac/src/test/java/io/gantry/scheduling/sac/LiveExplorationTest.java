package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class LiveExplorationTest {

    /** A decision as the actor sees it: candidates of jobs j0-j4 on some node, then wait; π over the valid ones. */
    private record Step(CandidateSet set, double[] p) {
    }

    private static Step step(SplittableRandom rng) {
        int size = 2 + rng.nextInt(12);
        boolean[] mask = new boolean[size];
        String[] jobIds = new String[size];
        double[] p = new double[size];
        double sum = 0;
        for (int i = 0; i < size; i++) {
            jobIds[i] = i == size - 1 ? null : "j" + rng.nextInt(5);
            mask[i] = i == size - 1 || rng.nextDouble() < 0.7;
            p[i] = mask[i] ? Math.pow(rng.nextDouble(), 3) + 1e-6 : 0;
            sum += p[i];
        }
        for (int i = 0; i < size; i++) {
            p[i] /= sum;
        }
        return new Step(new CandidateSet(new float[size * Features.COUNT], mask, jobIds, new int[size], size), p);
    }

    @Test
    void theExploredShareIsTheConfiguredOneWhenEveryJobMayBeStopped() {
        LiveExploration e = new LiveExploration(0.05, new SplittableRandom(3));
        SplittableRandom steps = new SplittableRandom(4);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            Step s = step(steps);
            int a = e.choose(s.p(), s.set(), Set.of());
            assertTrue(s.set().mask()[a], "a valid candidate");
        }
        assertEquals(n, e.decisions());
        assertEquals(0, e.barred());
        // Binomial(20000, 0.05): sd 31 decisions; 4 sd either side is 0.05 +- 0.0062.
        double share = e.explored() / (double) n;
        assertEquals(0.05, share, 0.0062, "explored share " + share);
    }

    @Test
    void aJobThatMayNotBeStoppedIsNeverExplored() {
        Set<String> pinned = Set.of("j0", "j1");
        LiveExploration e = new LiveExploration(0.5, new SplittableRandom(5));
        SplittableRandom steps = new SplittableRandom(6);
        int differed = 0;
        for (int i = 0; i < 20_000; i++) {
            Step s = step(steps);
            int greedy = SacAgent.choose(s.p(), s.set().mask(), null);
            int a = e.choose(s.p(), s.set(), pinned);
            String greedyJob = s.set().jobIds()[greedy];
            if (greedyJob != null && pinned.contains(greedyJob)) {
                assertEquals(greedy, a, "the greedy choice starts a pinned job: no exploration");
            } else if (a != greedy) {
                differed++;
                String job = s.set().jobIds()[a];
                assertTrue(job == null || !pinned.contains(job), "an explored decision placed pinned job " + job);
            }
        }
        assertTrue(e.barred() > 1000, "pinned greedy choices were drawn and kept: " + e.barred());
        assertTrue(differed > 1000, "the other decisions did explore: " + differed);
        // Drawn decisions are either explored or barred: together about half of all.
        assertEquals(0.5, (e.explored() + e.barred()) / (double) e.decisions(), 0.015);
    }

    @Test
    void aShareOfZeroIsExactlyGreedyAndDrawsNothing() {
        SplittableRandom rng = new SplittableRandom(7);
        LiveExploration e = new LiveExploration(0, rng);
        SplittableRandom steps = new SplittableRandom(8);
        for (int i = 0; i < 1000; i++) {
            Step s = step(steps);
            assertEquals(SacAgent.choose(s.p(), s.set().mask(), null), e.choose(s.p(), s.set(), Set.of()));
        }
        assertEquals(0, e.explored());
        assertEquals(new SplittableRandom(7).nextLong(), rng.nextLong(), "the stream was never drawn from");
    }

    @Test
    void theSameSeedMakesTheSameChoices() {
        List<Integer> first = choices(9);
        assertEquals(first, choices(9));
        assertNotEquals(first, choices(10), "another seed explores other decisions");
    }

    private static List<Integer> choices(long seed) {
        LiveExploration e = new LiveExploration(0.2, new SplittableRandom(seed));
        SplittableRandom steps = new SplittableRandom(11);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Step s = step(steps);
            out.add(e.choose(s.p(), s.set(), Set.of("j3")));
        }
        return out;
    }

    // --- through the policy

    private static SchedulingContext context(long seed, boolean allPinned) {
        SplittableRandom rng = new SplittableRandom(seed);
        ClusterState c = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n1", Resources.ofGpus(8, 96, 384)), new NodeSpec("n2", Resources.ofGpus(8, 96, 384))));
        c.allocate("n1", Resources.ofGpus(1 + rng.nextInt(6), 8, 32));
        List<JobRequest> pending = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pending.add(new JobRequest("j" + i, "u" + rng.nextInt(3), 1 + rng.nextInt(2),
                    Resources.ofGpus(1 + rng.nextInt(4), 4, 16), i * 10, 0, 100 + rng.nextInt(3000), Double.NaN));
        }
        Set<String> pinned = allPinned ? pending.stream().map(JobRequest::id).collect(Collectors.toSet()) : Set.of();
        return new SchedulingContext(100, pending, c, List.of(), Map.of(), pinned);
    }

    @Test
    void thePolicyExploresOnlyJobsThatMayBeStopped() {
        try (SacAgent agent = SacAgent.create(SacSettings.DEFAULT, 12)) {
            OnlineTransitions transitions = new OnlineTransitions(agent.settings(), 100_000);
            SacPolicy greedy = SacPolicy.greedy(agent);
            // Every decision drawn for exploration: only the preemptibility of the jobs stands in the way.
            SacPolicy pinnedRun = transitions.policy(agent, new LiveExploration(1, new SplittableRandom(13)));
            SacPolicy openRun = transitions.policy(agent, new LiveExploration(1, new SplittableRandom(13)));
            Set<Integer> differentRounds = new HashSet<>();
            for (int round = 0; round < 30; round++) {
                List<Placement> expected = greedy.decide(context(round, true)).placements();
                assertEquals(expected, pinnedRun.decide(context(round, true)).placements(),
                        "round " + round + ": every job pinned, so the round is greedy");
                if (!expected.equals(openRun.decide(context(round, false)).placements())) {
                    differentRounds.add(round);
                }
            }
            assertFalse(differentRounds.isEmpty(), "with nothing pinned, sampling changes some of the 30 rounds");
        }
    }
}
