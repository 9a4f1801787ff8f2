package io.gantry.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduler.config.LearnerConfig;
import io.gantry.scheduler.persistence.PolicyVersions;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import io.gantry.scheduling.sac.SacConfig;
import io.gantry.scheduling.sac.SacPolicy;
import io.gantry.scheduling.sac.SacSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a restart of the scheduler loads: the latest promoted version, or the configured checkpoint as sac-0. */
class OnlineLearnerRestartTest {

    /**
     * The learner's defaults, but for where it keeps its versions, how many, and the batch; and no live exploration,
     * since these tests tell which version loaded by comparing its round with that version's greedy one
     * (exploration has its own test, {@code OnlineLearnerExplorationTest}).
     */
    private static LearnerConfig learner(Path dataDir, int batchSize) {
        return LearnerTestConfig.learner(Map.of("data-dir", dataDir.toString(), "keep-versions", "2",
                "batch-size", String.valueOf(batchSize), "explore-share", "0"));
    }

    /** Eight pending jobs on three nodes, one of them half full: a round with real choices. */
    private static SchedulingContext context() {
        ClusterState c = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n1", Resources.ofGpus(8, 96, 384)), new NodeSpec("n2", Resources.ofGpus(8, 96, 384))));
        c.allocate("n1", Resources.ofGpus(4, 8, 32));
        List<JobRequest> pending = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            pending.add(new JobRequest("j" + i, "u" + (i % 3), 1 + i % 2, Resources.ofGpus(1 + i % 4, 4, 16), i * 10,
                    0, 100.0 * (8 - i), Double.NaN));
        }
        return new SchedulingContext(100, pending, c);
    }

    private static List<Placement> decide(OnlineLearner learner) {
        return learner.initialPolicy().policy().decide(context()).placements();
    }

    @Test
    void aRestartDecidesWithTheLatestPromotedVersion(@TempDir Path dir) throws Exception {
        PolicyVersions versions = new PolicyVersions(dir);
        List<Placement> promoted;
        // Untrained agents with the prior all act as the prior, so the newer version has no prior (a plain, randomly
        // initialised actor): the two versions decide differently and the comparison below can tell which was loaded.
        SacSettings d = SacSettings.DEFAULT;
        SacSettings noPrior = new SacSettings(d.windowJobs(), d.nodesPerJob(), d.hidden(), d.gamma(), d.tau(),
                d.learningRate(), d.alphaLearningRate(), d.initialAlpha(), d.targetEntropyRatio(), d.batchSize(),
                d.replayCapacity(), d.rewardScaleJobSeconds(), d.balanceWeight(), d.fairnessWeight(), 0, 1);
        try (SacAgent older = SacAgent.create(SacSettings.DEFAULT, 5);
             SacAgent newer = SacAgent.create(noPrior, 6)) {
            versions.promote(2, older, Map.of("note", "older"), 2);
            versions.promote(3, newer, Map.of("note", "newer"), 2);
            promoted = SacPolicy.greedy(newer).decide(context()).placements();
            assertNotEquals(SacPolicy.greedy(older).decide(context()).placements(), promoted, "the two versions decide differently");
        }
        assertEquals(3, versions.latestPromoted().orElseThrow().number());

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OnlineLearner restarted = new OnlineLearner(LearnerTestConfig.sac(), learner(dir, 64), registry);
        try {
            assertEquals("sac-3", restarted.initialPolicy().version());
            assertEquals("sac", restarted.initialPolicy().policy().name());
            assertEquals(promoted, decide(restarted), "decides exactly as the promoted agent did");
            assertEquals(3, registry.get("gantry.sac.policy.version").gauge().value());
        } finally {
            restarted.initialPolicy().resources().close();
        }
    }

    @Test
    void versionsBeyondTheKeptOnesAreDeletedAndNumbersNeverRepeat(@TempDir Path dir) throws IOException {
        PolicyVersions versions = new PolicyVersions(dir);
        try (SacAgent a = SacAgent.create(SacSettings.DEFAULT, 5)) {
            for (int n = 1; n <= 4; n++) {
                versions.promote(n, a, Map.of(), 2);
            }
        }
        assertEquals(List.of("sac-3", "sac-4"), Files.list(dir.resolve("versions")).map(p -> p.getFileName().toString())
                .sorted().toList());
        assertEquals(4, versions.highestNumber());
        assertEquals("sac-4", Files.readString(dir.resolve("promoted")).strip());
    }

    @Test
    void aCorruptedPromotedVersionFallsBackToTheConfiguredCheckpointAsSac0(@TempDir Path dir) throws Exception {
        PolicyVersions versions = new PolicyVersions(dir);
        try (SacAgent a = SacAgent.create(SacSettings.DEFAULT, 5)) {
            Path saved = versions.promote(1, a, Map.of(), 2).dir();
            Files.write(saved.resolve(SacCheckpoint.PARAMS), new byte[] {1, 2, 3});
        }
        OnlineLearner restarted = new OnlineLearner(LearnerTestConfig.sac(), learner(dir, 64),
                new SimpleMeterRegistry());
        try (SacAgent shipped = SacCheckpoint.load(SacConfig.current().checkpoint())) {
            assertEquals("sac-0", restarted.initialPolicy().version());
            assertEquals(SacPolicy.greedy(shipped).decide(context()).placements(), decide(restarted));
            assertNotEquals(List.of(), decide(restarted), "the round places jobs, so the comparison means something");
        } finally {
            restarted.initialPolicy().resources().close();
        }
    }

    @Test
    void aBadSettingIsAnErrorNamingIt(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OnlineLearner(LearnerTestConfig.sac(), learner(dir, 0), new SimpleMeterRegistry()));
        assertTrue(e.getMessage().contains("gantry.scheduler.learner.batch-size"), e.getMessage());
    }
}
