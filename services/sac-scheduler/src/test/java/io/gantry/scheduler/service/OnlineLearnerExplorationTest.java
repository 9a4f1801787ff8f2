package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import io.gantry.scheduling.sac.SacConfig;
import io.gantry.scheduling.sac.SacPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The learner's live policy explores its {@code explore-share} of decisions, never for a not-preemptible job. */
class OnlineLearnerExplorationTest {

    /** Ten pending jobs on three nodes, one partly full; {@code pinned} = submitted as not preemptible. */
    private static SchedulingContext context(long seed, boolean pinned) {
        SplittableRandom rng = new SplittableRandom(seed);
        ClusterState c = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n1", Resources.ofGpus(8, 96, 384)), new NodeSpec("n2", Resources.ofGpus(8, 96, 384))));
        c.allocate("n1", Resources.ofGpus(1 + rng.nextInt(6), 8, 32));
        List<JobRequest> pending = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pending.add(new JobRequest("j" + i, "u" + rng.nextInt(3), 1 + rng.nextInt(2),
                    Resources.ofGpus(1 + rng.nextInt(4), 4, 16), i * 10, 0, 100 + rng.nextInt(3000), Double.NaN));
        }
        Set<String> notPreemptible = pinned ? pending.stream().map(JobRequest::id).collect(Collectors.toSet())
                : Set.of();
        return new SchedulingContext(100, pending, c, List.of(), Map.of(), notPreemptible);
    }

    private static double counter(SimpleMeterRegistry r, String name) {
        return r.get(name).functionCounter().count();
    }

    @Test
    void everyDrawnDecisionExploresButNeverForANotPreemptibleJob(@TempDir Path dir) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OnlineLearner learner = new OnlineLearner(LearnerTestConfig.sac(),
                LearnerTestConfig.learner(Map.of("data-dir", dir.toString(), "explore-share", "1")), registry);
        SchedulingPolicy live = learner.initialPolicy().policy();
        try (SacAgent shipped = SacCheckpoint.load(SacConfig.current().checkpoint())) {
            SacPolicy greedy = SacPolicy.greedy(shipped);
            int changed = 0;
            for (int round = 0; round < 30; round++) {
                List<Placement> best = greedy.decide(context(round, true)).placements();
                assertEquals(best, live.decide(context(round, true)).placements(),
                        "round " + round + ": all jobs not preemptible, so no decision explores");
                changed += best.equals(live.decide(context(round, false)).placements()) ? 0 : 1;
            }
            assertTrue(changed > 0, "with every job preemptible, sampling changes some of 30 rounds");
            double decisions = counter(registry, "gantry.sac.exploration.decisions");
            assertTrue(decisions >= 60, "two rounds of decisions per context: " + decisions);
            assertTrue(counter(registry, "gantry.sac.exploration.barred") > 0);
            assertTrue(counter(registry, "gantry.sac.exploration.explored") > 0);
            assertEquals(decisions, counter(registry, "gantry.sac.exploration.barred")
                    + counter(registry, "gantry.sac.exploration.explored"), "a share of 1 draws every decision");
        } finally {
            learner.initialPolicy().resources().close();
        }
    }

    @Test
    void windowsThatCanNeverReachTheLevelAreAnErrorNamingTheKey(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OnlineLearner(LearnerTestConfig.sac(), LearnerTestConfig.learner(Map.of("data-dir",
                        dir.toString(), "check-windows", "4", "check-alpha", "0.05")), new SimpleMeterRegistry()));
        assertTrue(e.getMessage().contains("gantry.scheduler.learner.check-windows"), e.getMessage());
        IllegalArgumentException share = assertThrows(IllegalArgumentException.class,
                () -> new OnlineLearner(LearnerTestConfig.sac(), LearnerTestConfig.learner(Map.of("data-dir",
                        dir.toString(), "explore-share", "1.5")), new SimpleMeterRegistry()));
        assertTrue(share.getMessage().contains("gantry.scheduler.learner.explore-share"), share.getMessage());
    }
}
