package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.pytorch.jni.JniUtils;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SacAgentTest {

    private static SacAgent agent;

    @BeforeAll
    static void createAgent() {
        agent = SacAgent.create(SacSettings.DEFAULT, 11);
    }

    @AfterAll
    static void closeAgent() {
        agent.close();
    }

    /** n0 empty (8 GPUs), n1 with 4 GPUs taken, n2 full. */
    private static ClusterState partlyFullCluster() {
        ClusterState c = new ClusterState(List.of(
                new NodeSpec("n0", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n1", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n2", Resources.ofGpus(8, 96, 384))));
        c.allocate("n1", Resources.ofGpus(4, 8, 32));
        c.allocate("n2", Resources.ofGpus(8, 8, 32));
        return c;
    }

    private static JobRequest job(String id, int tasks, double gpusPerTask, double submit, double predicted) {
        return new JobRequest(id, "u" + (id.hashCode() & 3), tasks, Resources.ofGpus(gpusPerTask, 4, 16), submit, 0,
                predicted, 1000);
    }

    private static List<JobRequest> mixedQueue() {
        return List.of(job("big", 1, 6, 0, 500), job("mid", 1, 3, 5, 100), job("small", 1, 1, 9, Double.NaN),
                job("gang", 2, 4, 12, 50), job("huge", 2, 8, 1, 10));
    }

    @Test
    void maskingNeverPicksAnInfeasibleCandidate() {
        ClusterState cluster = partlyFullCluster();
        TentativeCluster view = new TentativeCluster(cluster);
        CandidateSet s = SacSettings.DEFAULT.features().build(100, mixedQueue(), view);
        int infeasible = 0;
        for (int i = 0; i < s.waitIndex(); i++) {
            String id = s.jobIds()[i];
            JobRequest j = mixedQueue().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
            String node = view.nodes().name(s.nodes()[i]);
            boolean fits = cluster.node(node).fits(j.perTask());
            assertEquals(fits, s.mask()[i], j.id() + " on " + node);
            if (!fits) {
                infeasible++;
            }
        }
        assertTrue(infeasible > 0, "the case must offer masked candidates to mean anything");
        assertFalse(s.mask()[s.waitIndex()], "jobs can start, so waiting is masked (work-conserving)");
        double[] p = agent.probabilities(s);
        SplittableRandom rng = new SplittableRandom(3);
        for (int i = 0; i < p.length; i++) {
            if (!s.mask()[i]) {
                assertEquals(0.0, p[i], "masked candidate " + i + " has probability");
            }
        }
        for (int k = 0; k < 5000; k++) {
            assertTrue(s.mask()[agent.act(s, rng)]);
        }
        assertTrue(s.mask()[agent.act(s, null)]);
    }

    @Test
    void waitingIsAllowedOnlyWhenNoJobCanStartAndRoundsNeverOverAllocate() {
        ClusterState empty = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384))));
        CandidateSet s = SacSettings.DEFAULT.features().build(0, mixedQueue(), new TentativeCluster(empty));
        assertFalse(s.mask()[s.waitIndex()], "nothing runs, so a wait would never end");
        ClusterState full = partlyFullCluster();
        full.allocate("n0", Resources.ofGpus(8, 8, 32));
        full.allocate("n1", Resources.ofGpus(4, 8, 32));
        CandidateSet none = SacSettings.DEFAULT.features().build(0, mixedQueue(), new TentativeCluster(full));
        assertEquals(1, none.validCount(), "nothing fits and nothing may be preempted: only waiting is left");
        assertTrue(none.mask()[none.waitIndex()]);

        SplittableRandom rng = new SplittableRandom(5);
        for (int round = 0; round < 200; round++) {
            ClusterState cluster = partlyFullCluster();
            List<Placement> placed = new ArrayList<>();
            SacPolicy exploring = SacPolicy.exploring(agent, rng, (now, st, a, p, c, pending) -> { });
            placed.addAll(exploring.decide(new SchedulingContext(100, mixedQueue(), cluster)).placements());
            Set<String> ids = new HashSet<>();
            for (Placement pl : placed) {
                assertTrue(ids.add(pl.jobId()));
                JobRequest j = mixedQueue().stream().filter(x -> x.id().equals(pl.jobId())).findFirst().orElseThrow();
                assertEquals(j.tasks(), pl.nodes().size());
                // ClusterState refuses over-allocation: applying the round must succeed.
                pl.nodes().forEach(n -> cluster.allocate(n, j.perTask()));
            }
            assertTrue(exploring.fallbackReason().isEmpty());
        }
    }

    @Test
    void aFreshAgentActsAsItsPriorAndThePlainJavaForwardMatchesDjl() {
        CandidateSet s = SacSettings.DEFAULT.features().build(100, mixedQueue(), new TentativeCluster(partlyFullCluster()));
        float[] java = agent.logits(s);
        float[] djl = agent.djlLogits(s);
        for (int i = 0; i < s.size(); i++) {
            float prior = s.features()[i * Features.COUNT + Features.PRIOR_INDEX] * Features.PRIOR_SCALE;
            assertEquals(prior, java[i], 1e-5, "candidate " + i + ": the untrained correction must be exactly 0");
            assertEquals(djl[i], java[i], 1e-4, "candidate " + i);
        }
        // The most probable candidate is the fitting job with the least predicted GPU service: "mid" (100 s × 3 GPUs);
        // "huge" (10 s × 16 GPUs) is more urgent but fits nowhere and this caller may not preempt.
        assertEquals("mid", s.jobIds()[agent.act(s, null)]);
        try (SacAgent trained = SacAgent.create(SacSettings.DEFAULT, 41)) {
            for (int i = 0; i < 3; i++) {
                trained.update(fixedBatch(32, 50 + i));
            }
            float[] after = trained.logits(s);
            float[] afterDjl = trained.djlLogits(s);
            boolean moved = false;
            for (int i = 0; i < s.size(); i++) {
                assertEquals(afterDjl[i], after[i], 1e-4, "after training, candidate " + i);
                float prior = s.features()[i * Features.COUNT + Features.PRIOR_INDEX] * Features.PRIOR_SCALE;
                assertTrue(Math.abs(after[i] - prior) <= SacSettings.DEFAULT.residualBound() + 1e-5, "the correction is bounded");
                moved |= Math.abs(after[i] - prior) > 1e-7;
            }
            assertTrue(moved, "gradient steps must change the learned correction");
        }
    }

    /**
     * One full 8-GPU node at 36,000 s: "long" has run 10 h on 6 GPUs past its 1 h prediction (2D-LAS urgency 216,000
     * GPU-s), "young" has 50 s left on 2; {@code pending} waits.
     */
    private static SchedulingContext longAndYoungRunning(JobRequest pending) {
        ClusterState cluster = new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384))));
        cluster.allocate("n0", Resources.ofGpus(6, 8, 32));
        cluster.allocate("n0", Resources.ofGpus(2, 8, 32));
        JobRequest longJob = new JobRequest("long", "a", 1, Resources.ofGpus(6, 8, 32), 0, 0, 3600, 1e6);
        JobRequest young = new JobRequest("young", "b", 1, Resources.ofGpus(2, 8, 32), 35_900, 0, 100, 1e6);
        List<io.gantry.scheduling.framework.RunningJob> running = List.of(
                new io.gantry.scheduling.framework.RunningJob(longJob, List.of("n0"), 0, 0),
                new io.gantry.scheduling.framework.RunningJob(young, List.of("n0"), 35_950, 0));
        return new SchedulingContext(36_000, List.of(pending), cluster, running, java.util.Map.of());
    }

    @Test
    void aMoreUrgentJobPreemptsOnlyLessUrgentRunningJobsAndOnlyWhenAllowed() {
        JobRequest shortJob = new JobRequest("short", "c", 1, Resources.ofGpus(4, 8, 32), 36_000, 0, 600, 600);
        SchedulingContext ctx = longAndYoungRunning(shortJob);

        var d = SacPolicy.greedy(agent).decide(ctx);
        assertEquals(List.of("long"), d.preemptions(), "only the less urgent job is stopped");
        assertEquals(List.of(new Placement("short", List.of("n0"))), d.placements());
        SchedulingContext pinned = new SchedulingContext(ctx.now(), ctx.pending(), ctx.cluster(), ctx.running().stream()
                .map(r -> new io.gantry.scheduling.framework.RunningJob(r.job(), r.nodes(), r.startedAt(),
                        r.attainedGpuSecondsAtStart(), false)).toList(), ctx.pendingAttainedGpuS());
        var kept = SacPolicy.greedy(agent).decide(pinned);
        assertTrue(kept.preemptions().isEmpty() && kept.placements().isEmpty(),
                "running jobs that may not be stopped are never victims: " + kept);

        JobRequest longer = new JobRequest("longer", "c", 1, Resources.ofGpus(4, 8, 32), 36_000, 0, 1e6, 1e6);
        var none = SacPolicy.greedy(agent).decide(longAndYoungRunning(longer));
        assertTrue(none.preemptions().isEmpty() && none.placements().isEmpty(),
                "a job less urgent than every running one waits: " + none);
    }

    /**
     * "long" (216,000 GPU-s of urgency on 6 GPUs) yields to "short" (2,400 GPU-s) only while the difference exceeds what
     * restarting it costs: 6 GPUs × the restart cost, so the break-even is (216,000 − 2,400) ÷ 6 = 35,600 s.
     */
    @Test
    void aRestartCostStopsOnlyJobsLessUrgentByMoreThanItCosts() {
        JobRequest shortJob = new JobRequest("short", "c", 1, Resources.ofGpus(4, 8, 32), 36_000, 0, 600, 600);
        SchedulingContext ctx = longAndYoungRunning(shortJob);
        try {
            SacConfig.use(SacConfig.DEFAULT.with("sac.restart-cost-s", "30000"));
            assertEquals(List.of("long"), SacPolicy.greedy(agent).decide(ctx).preemptions());
            SacConfig.use(SacConfig.DEFAULT.with("sac.restart-cost-s", "36000"));
            var kept = SacPolicy.greedy(agent).decide(ctx);
            assertTrue(kept.preemptions().isEmpty() && kept.placements().isEmpty(), "not worth a restart: " + kept);
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> SacConfig.DEFAULT.with("sac.restart-cost-s", "-5"));
            assertTrue(bad.getMessage().contains(SacConfig.RESTART_COST_KEY), bad.getMessage());
            assertThrows(IllegalArgumentException.class, () -> SacConfig.DEFAULT.with("sac.restart-cost", "5"),
                    "an unknown setting is an error, not ignored");
        } finally {
            SacConfig.use(SacConfig.DEFAULT);
        }
    }

    @Test
    void updatesLeaveNoNativeArraysBehind() {
        try (SacAgent a = SacAgent.create(SacSettings.DEFAULT, 51)) {
            // The first update creates the optimisers' state; after it, an update holds what it allocates only briefly.
            a.update(fixedBatch(16, 1));
            int held = a.nativeArrays();
            for (int i = 0; i < 5; i++) {
                a.update(fixedBatch(16, 2 + i));
            }
            assertEquals(held, a.nativeArrays());
        }
    }

    private static List<Transition> fixedBatch(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<Transition> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CandidateSet s = randomSet(rng);
            CandidateSet next = i % 5 == 4 ? null : randomSet(rng);
            int a;
            do {
                a = rng.nextInt(s.size());
            } while (!s.mask()[a]);
            out.add(new Transition(s, a, -rng.nextDouble() * 2, next));
        }
        return out;
    }

    private static CandidateSet randomSet(SplittableRandom rng) {
        return RandomCandidates.set(rng, 20, 0.7);
    }

    @Test
    void theSameSeedAndBatchesGiveBitIdenticalWeightsOnOnePyTorchThread() throws IOException {
        // No surefire property sets the threads here: the agent itself must (TorchThreads).
        assertEquals(1, JniUtils.getNumThreads(), "PyTorch intra-op threads");
        byte[][] weights = new byte[2][];
        for (int run = 0; run < 2; run++) {
            try (SacAgent a = SacAgent.create(SacSettings.DEFAULT, 61)) {
                for (int step = 0; step < 20; step++) {
                    a.update(fixedBatch(64, 100 + step));
                }
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                a.writeParameters(bytes);
                weights[run] = bytes.toByteArray();
            }
        }
        assertArrayEquals(weights[0], weights[1], "two trainings of one seed on the same batches");
    }

    @Test
    void oneGradientStepOnAFixedBatchLowersTheCriticLoss() {
        try (SacAgent fresh = SacAgent.create(SacSettings.DEFAULT, 21)) {
            List<Transition> batch = fixedBatch(64, 9);
            double before = fresh.criticLoss(batch);
            fresh.update(batch);
            double after = fresh.criticLoss(batch);
            assertTrue(after < before, "critic loss " + before + " -> " + after);
        }
    }

    @Test
    void saveThenLoadGivesIdenticalActionProbabilities(@TempDir Path dir) throws IOException {
        try (SacAgent trained = SacAgent.create(SacSettings.DEFAULT, 31)) {
            for (int i = 0; i < 3; i++) {
                trained.update(fixedBatch(32, i));
            }
            SacCheckpoint.save(dir, trained, java.util.Map.of("purpose", "test"));
            CandidateSet s = SacSettings.DEFAULT.features().build(100, mixedQueue(), new TentativeCluster(partlyFullCluster()));
            try (SacAgent loaded = SacCheckpoint.load(dir.toString())) {
                assertArrayEquals(trained.probabilities(s), loaded.probabilities(s), 0.0);
                assertEquals(trained.alpha(), loaded.alpha(), 0.0);
                List<Transition> batch = fixedBatch(16, 99);
                assertEquals(trained.criticLoss(batch), loaded.criticLoss(batch), 0.0);
            }
            try (SacAgent other = SacAgent.create(SacSettings.DEFAULT, 32)) {
                assertNotEquals(trained.probabilities(s)[0], other.probabilities(s)[0], "a different agent must differ");
            }
        }
    }

    @Test
    void aCorruptedCheckpointFallsBackToKubeDefaultWithAClearMessage(@TempDir Path dir) throws IOException {
        SacCheckpoint.save(dir, agent, java.util.Map.of());
        byte[] params = Files.readAllBytes(dir.resolve(SacCheckpoint.PARAMS));
        params[params.length / 2] ^= 0x5A;
        Files.write(dir.resolve(SacCheckpoint.PARAMS), params);

        SacPolicy sac = SacPolicy.fromCheckpoint(dir.toString());
        assertTrue(sac.fallbackReason().isPresent());
        assertTrue(sac.fallbackReason().get().contains("SHA-256"), sac.fallbackReason().get());
        assertTrue(sac.fallbackReason().get().contains(dir.toString()), sac.fallbackReason().get());
        SchedulingContext ctx = new SchedulingContext(100, mixedQueue(), partlyFullCluster());
        assertEquals(new KubeDefaultPolicy().decide(ctx).placements(), sac.decide(ctx).placements());
        assertEquals("sac", sac.name());

        Path truncated = dir.resolveSibling(dir.getFileName() + "-truncated");
        SacCheckpoint.save(truncated, agent, java.util.Map.of());
        Files.writeString(truncated.resolve(SacCheckpoint.METADATA), "{\"settings\": ");
        assertTrue(SacPolicy.fromCheckpoint(truncated.toString()).fallbackReason().orElseThrow().contains("not valid JSON"));
        assertTrue(SacPolicy.fromCheckpoint(dir.resolve("nowhere").toString()).fallbackReason().orElseThrow().contains("no file"));
    }
}
