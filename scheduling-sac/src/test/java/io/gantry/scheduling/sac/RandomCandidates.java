package io.gantry.scheduling.sac;

import java.util.SplittableRandom;

/** Random candidate sets for the agent's tests: uniform features, the first candidate always valid. */
final class RandomCandidates {

    private RandomCandidates() {
    }

    /** Two to {@code 1 + maxExtra} candidates; each after the first is valid with probability {@code validChance}. */
    static CandidateSet set(SplittableRandom rng, int maxExtra, double validChance) {
        int size = 2 + rng.nextInt(maxExtra);
        float[] f = new float[size * Features.COUNT];
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) rng.nextDouble();
        }
        boolean[] mask = new boolean[size];
        for (int i = 0; i < size; i++) {
            mask[i] = i == 0 || rng.nextDouble() < validChance;
        }
        return new CandidateSet(f, mask, new String[size], new int[size], size);
    }
}
