package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint is also a starting point for more training (online learning, {@code train --init}). */
class LoadedAgentTrainsTest {

    private static List<Transition> batch(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<Transition> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Transition(set(rng), 0, -rng.nextDouble(), set(rng)));
        }
        return out;
    }

    private static CandidateSet set(SplittableRandom rng) {
        return RandomCandidates.set(rng, 8, 0.5);
    }

    @Test
    void aLoadedAgentTakesGradientSteps(@TempDir Path dir) throws IOException {
        try (SacAgent fresh = SacAgent.create(SacSettings.DEFAULT, 3)) {
            SacCheckpoint.save(dir, fresh, Map.of());
        }
        try (SacAgent loaded = SacCheckpoint.load(dir.toString())) {
            List<Transition> b = batch(32, 5);
            double before = loaded.criticLoss(b);
            SacAgent.UpdateStats s = loaded.update(b);
            assertTrue(Double.isFinite(s.criticLoss()) && Double.isFinite(s.actorLoss()), s.toString());
            double after = loaded.criticLoss(b);
            assertTrue(after < before, "critic loss " + before + " -> " + after);
        }
    }
}
