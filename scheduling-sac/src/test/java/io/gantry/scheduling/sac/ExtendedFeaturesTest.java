package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The extra features of issue 20, item 3, and checkpoints trained with them. */
class ExtendedFeaturesTest {

    private static final SacSettings EXTENDED = SacSettings.DEFAULT.withExtendedFeatures(true);
    private static final int EXTRA = Features.COUNT;

    /** A job as the live scheduler has it: its run time unknown. */
    private static JobRequest job(String id, String user, int gpus, double submit, double predicted) {
        return new JobRequest(id, user, 1, Resources.ofGpus(gpus, 4, 16), submit, 0, predicted, Double.NaN);
    }

    private static ClusterState cluster() {
        return new ClusterState(List.of(new NodeSpec("n0", Resources.ofGpus(8, 96, 384)),
                new NodeSpec("n1", Resources.ofGpus(8, 96, 384))));
    }

    private static SchedulingContext round(double now, List<JobRequest> pending, List<RunningJob> running) {
        return new SchedulingContext(now, pending, cluster(), running, Map.of());
    }

    @Test
    void anEndIsAJobThatRanAndIsNeitherRunningNorPendingAndAStopIsNot() {
        ObservedRuntimes seen = new ObservedRuntimes();
        JobRequest a = job("a", "alice", 2, 0, 100);
        JobRequest b = job("b", "alice", 1, 0, -1);
        seen.observe(round(0, List.of(b), List.of(new RunningJob(a, List.of("n0"), 0, 0))));
        // a is stopped at 50 s (pending again, 100 GPU-s attained): not an end
        seen.observe(round(50, List.of(a, b), List.of()));
        assertEquals(0, seen.of("alice").ends());
        // a runs again from 80 s and is gone at 130 s: 100 + 50 x 2 GPU-s over 2 GPUs = 100 s run
        seen.observe(round(80, List.of(b), List.of(new RunningJob(a, List.of("n0"), 80, 100))));
        seen.observe(round(130, List.of(b), List.of()));
        ObservedRuntimes.UserHistory h = seen.of("alice");
        assertEquals(1, h.ends());
        assertEquals(Math.log1p(100), h.meanLogRunS(), 1e-9);
        assertEquals(Math.log1p(100) - Math.log1p(100), h.meanLogOutlived(), 1e-9);
        // b had no prediction: its end counts, its outliving does not
        seen.observe(round(130, List.of(), List.of(new RunningJob(b, List.of("n1"), 130, 0))));
        seen.observe(round(430, List.of(), List.of()));
        h = seen.of("alice");
        assertEquals(2, h.ends());
        assertEquals((Math.log1p(100) + Math.log1p(300)) / 2, h.meanLogRunS(), 1e-9);
        assertEquals(0, h.meanLogOutlived(), 1e-9);
        assertEquals(ObservedRuntimes.UserHistory.NONE, seen.of("bob"));
    }

    @Test
    void aJobWhoseRunTimeTheCallerKnowsIsRecordedWithItNotWithTheTimeUntilTheNextRound() {
        ObservedRuntimes seen = new ObservedRuntimes();
        JobRequest simulated = new JobRequest("s", "dave", 1, Resources.ofGpus(2, 4, 16), 0, 0, 100, 250);
        seen.observe(round(0, List.of(), List.of(new RunningJob(simulated, List.of("n0"), 0, 0))));
        // nothing waited after it ended at 250 s, so no round came until 4,000 s
        seen.observe(round(4000, List.of(), List.of()));
        assertEquals(Math.log1p(250), seen.of("dave").meanLogRunS(), 1e-9);
        JobRequest live = job("l", "erin", 2, 0, 100);
        seen.observe(round(0, List.of(), List.of(new RunningJob(live, List.of("n0"), 0, 0))));
        seen.observe(round(4000, List.of(), List.of()));
        assertEquals(Math.log1p(4000), seen.of("erin").meanLogRunS(), 1e-9, "live: up to the round that found it gone");
    }

    @Test
    void aUserHistoryKeepsTheLastTenEnds() {
        ObservedRuntimes seen = new ObservedRuntimes();
        for (int i = 0; i < 12; i++) {
            JobRequest j = job("j" + i, "carol", 1, 0, 10);
            double runS = i < 2 ? 1e6 : 10;
            seen.observe(round(0, List.of(), List.of(new RunningJob(j, List.of("n0"), 0, 0))));
            seen.observe(round(runS, List.of(), List.of()));
        }
        ObservedRuntimes.UserHistory h = seen.of("carol");
        assertEquals(ObservedRuntimes.MEMORY, h.ends());
        assertEquals(Math.log1p(10), h.meanLogRunS(), 1e-9, "the two long first ends are forgotten");
    }

    @Test
    void extendedCandidatesAreTheBaseOnesFollowedByQueueAndHistoryFeatures() {
        List<JobRequest> pending = List.of(job("long", "alice", 2, 0, 5000), job("short", "bob", 1, 5, 50),
                job("mid", "alice", 1, 9, 500));
        TentativeCluster view = new TentativeCluster(cluster());
        ObservedRuntimes seen = new ObservedRuntimes();
        // alice's one seen job ran 4x its prediction
        JobRequest done = job("done", "alice", 1, 0, 99);
        seen.observe(round(0, pending, List.of(new RunningJob(done, List.of("n0"), 0, 0))));
        seen.observe(round(399, pending, List.of()));

        CandidateSet base = SacSettings.DEFAULT.features().build(400, new RoundQueue(pending, view), view, seen);
        CandidateSet ext = EXTENDED.features().build(400, new RoundQueue(pending, view), view, seen);
        assertEquals(Features.COUNT, base.width());
        assertEquals(Features.COUNT + Features.EXTRA_NAMES.size(), ext.width());
        assertEquals(EXTENDED.featureCount(), ext.width());
        assertArrayEquals(base.jobIds(), ext.jobIds());
        int checked = 0;
        for (int i = 0; i < ext.size(); i++) {
            float[] b = Arrays.copyOfRange(base.features(), i * base.width(), (i + 1) * base.width());
            float[] e = Arrays.copyOfRange(ext.features(), i * ext.width(), (i + 1) * ext.width());
            assertArrayEquals(b, Arrays.copyOf(e, base.width()), "row " + i + ": the base part is unchanged");
            String id = ext.jobIds()[i];
            if (id == null) {
                assertArrayEquals(new float[Features.EXTRA_NAMES.size()], Arrays.copyOfRange(e, EXTRA, e.length));
                continue;
            }
            checked++;
            double rank = switch (id) {
                case "short" -> 0;
                case "mid" -> 0.5;
                default -> 1;
            };
            assertEquals(rank, e[EXTRA], 1e-6, id + " urgency rank in the whole queue");
            assertEquals(id.equals("short") ? 1 / 3.0 : 2 / 3.0, e[EXTRA + 1], 1e-6, id + " user's share of the queue");
            boolean alice = !id.equals("short");
            assertEquals(alice ? 0.1 : 0, e[EXTRA + 2], 1e-6);
            assertEquals(alice ? Math.log1p(399) / Math.log(1e6) : 0, e[EXTRA + 3], 1e-6);
            assertEquals(alice ? Math.tanh(Math.log1p(399) - Math.log1p(99)) : 0, e[EXTRA + 4], 1e-6);
        }
        assertTrue(checked >= 3, "every job is offered: " + Arrays.toString(ext.jobIds()));
    }

    @Test
    void anExtendedCheckpointSavesLoadsAndTrainsWithItsFeatures(@TempDir Path dir) throws IOException {
        List<JobRequest> pending = List.of(job("x", "alice", 2, 0, 500), job("y", "bob", 1, 5, 50));
        TentativeCluster view = new TentativeCluster(cluster());
        CandidateSet s = EXTENDED.features().build(10, new RoundQueue(pending, view), view, new ObservedRuntimes());
        try (SacAgent trained = SacAgent.create(EXTENDED, 41)) {
            trained.update(batch(s, 32));
            SacCheckpoint.save(dir, trained, Map.of());
            assertTrue(Files.readString(dir.resolve(SacCheckpoint.METADATA)).contains(Features.EXTRA_NAMES.get(4)));
            try (SacAgent loaded = SacCheckpoint.load(dir.toString())) {
                assertTrue(loaded.settings().extendedFeatures());
                assertArrayEquals(trained.probabilities(s), loaded.probabilities(s), 0.0);
                assertArrayEquals(trained.logits(s), trained.djlLogits(s), 1e-5f);
            }
        }
        SacPolicy policy = SacPolicy.fromCheckpoint(dir.toString());
        assertTrue(policy.fallbackReason().isEmpty(), policy.fallbackReason().orElse(""));
        assertEquals(2, policy.decide(round(10, pending, List.of())).placements().size(), "both jobs fit and start");

        // a list that is neither the base one nor the base followed by the extra ones is refused, naming both
        Path odd = dir.resolveSibling(dir.getFileName() + "-odd");
        try (SacAgent base = SacAgent.create(SacSettings.DEFAULT, 42)) {
            SacCheckpoint.save(odd, base, Map.of());
        }
        String meta = Files.readString(odd.resolve(SacCheckpoint.METADATA));
        Files.writeString(odd.resolve(SacCheckpoint.METADATA), meta.replace("\"is_wait\"", "\"is_waiting\""));
        IOException e = assertThrows(IOException.class, () -> SacCheckpoint.load(odd.toString()));
        assertTrue(e.getMessage().contains("optionally followed by"), e.getMessage());
    }

    /** Transitions from one candidate set to itself, with seeded actions and rewards. */
    private static List<Transition> batch(CandidateSet s, int n) {
        SplittableRandom rng = new SplittableRandom(5);
        List<Transition> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Transition(s, rng.nextInt(s.size() - 1), -rng.nextDouble(), s));
        }
        return out;
    }
}
