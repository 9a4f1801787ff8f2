package io.gantry.scheduling.sac;

import java.util.List;

/** A padded batch: every state is padded with masked rows to the largest candidate set in the batch. */
final class PaddedBatch {
    int n;
    int c;
    float[] states;
    float[] masks;
    float[] nextStates;
    float[] nextMasks;
    float[] actions;
    float[] rewards;
    float[] notDone;
    double[] targetEntropy;

    static PaddedBatch of(List<Transition> batch, double targetEntropyRatio) {
        PaddedBatch b = new PaddedBatch();
        b.n = batch.size();
        int c = 1;
        for (Transition t : batch) {
            c = Math.max(c, t.state().size());
            if (t.next() != null) {
                c = Math.max(c, t.next().size());
            }
        }
        b.c = c;
        int width = batch.get(0).state().width();
        b.states = new float[b.n * c * width];
        b.nextStates = new float[b.n * c * width];
        b.masks = new float[b.n * c];
        b.nextMasks = new float[b.n * c];
        b.actions = new float[b.n * c];
        b.rewards = new float[b.n];
        b.notDone = new float[b.n];
        b.targetEntropy = new double[b.n];
        for (int i = 0; i < b.n; i++) {
            Transition t = batch.get(i);
            copy(t.state(), b.states, b.masks, i, c, width);
            b.actions[i * c + t.action()] = 1;
            b.rewards[i] = (float) t.reward();
            if (t.next() != null) {
                copy(t.next(), b.nextStates, b.nextMasks, i, c, width);
                b.notDone[i] = 1;
            }
            b.targetEntropy[i] = targetEntropyRatio * Math.log(Math.max(1, t.state().validCount()));
        }
        return b;
    }

    private static void copy(CandidateSet s, float[] features, float[] masks, int row, int c, int width) {
        System.arraycopy(s.features(), 0, features, row * c * width, s.size() * width);
        for (int j = 0; j < s.size(); j++) {
            masks[row * c + j] = s.mask()[j] ? 1 : 0;
        }
    }
}
