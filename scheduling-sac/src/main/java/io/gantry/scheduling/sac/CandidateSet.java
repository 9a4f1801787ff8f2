package io.gantry.scheduling.sac;

/**
 * The actions open at one decision: candidate i is "start job {@code jobIds[i]} anchored on node
 * {@code nodes[i]}", or, for the last candidate, "wait" (job and node null). Candidates whose job cannot
 * start on that node are kept with {@code mask[i] = false}: the network sees them, the masked softmax
 * gives them probability exactly 0.
 *
 * @param features row-major, {@code size × width()} (the base features, then the extra ones if the policy reads them)
 */
public record CandidateSet(float[] features, boolean[] mask, String[] jobIds, int[] nodes, int size) {

    /** Features per candidate. */
    public int width() {
        return features.length / size;
    }

    /** Index of the wait candidate: always the last. */
    public int waitIndex() {
        return size - 1;
    }

    public boolean isWait(int i) {
        return i == waitIndex();
    }

    public int validCount() {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (mask[i]) {
                n++;
            }
        }
        return n;
    }
}
