package io.gantry.scheduling.sac;

import ai.djl.nn.ParameterList;

/**
 * The actor's forward pass in plain Java, from a copy of its weights (W1, b1, W2, b2, W3, b3) taken after the last
 * gradient step: a decision scores a few dozen candidates, and a DJL call per decision costs far more in native-call
 * overhead than the arithmetic (it was most of a replay's time). Training still runs in DJL ({@link SacAgent}).
 */
final class PlainActor {
    private final float[][] w;
    private final int h;
    /** Features per candidate. */
    private final int f;
    private final float bound;

    private PlainActor(float[][] w, int hidden, int width, float bound) {
        this.w = w;
        this.h = hidden;
        this.f = width;
        this.bound = bound;
    }

    /**
     * Copies the actor's parameters; fails if their number or sizes are not those of an MLP of {@code hidden} units
     * over {@code width} features.
     */
    static PlainActor of(ParameterList params, int hidden, int width, double residualBound) {
        int h = hidden;
        long[] sizes = {(long) h * width, h, (long) h * h, h, h, 1};
        if (params.size() != sizes.length) {
            throw new IllegalStateException("actor has " + params.size() + " parameter arrays, expected " + sizes.length);
        }
        float[][] w = new float[sizes.length][];
        for (int i = 0; i < sizes.length; i++) {
            w[i] = params.valueAt(i).getArray().toFloatArray();
            if (w[i].length != sizes[i]) {
                throw new IllegalStateException("actor parameter " + params.keyAt(i) + " has " + w[i].length
                        + " values, expected " + sizes[i]);
            }
        }
        return new PlainActor(w, hidden, width, (float) residualBound);
    }

    /** Prior logit (from the features) + residualBound × tanh(actor MLP) of every candidate. */
    float[] logits(CandidateSet s) {
        float[] x = s.features();
        if (s.width() != f) {
            throw new IllegalArgumentException("candidates carry " + s.width() + " features, the actor reads " + f);
        }
        float[] h1 = new float[h];
        float[] h2 = new float[h];
        float[] out = new float[s.size()];
        for (int r = 0; r < s.size(); r++) {
            int base = r * f;
            for (int j = 0; j < h; j++) {
                float acc = w[1][j];
                int row = j * f;
                for (int k = 0; k < f; k++) {
                    acc += w[0][row + k] * x[base + k];
                }
                h1[j] = Math.max(0f, acc);
            }
            for (int j = 0; j < h; j++) {
                float acc = w[3][j];
                int row = j * h;
                for (int k = 0; k < h; k++) {
                    acc += w[2][row + k] * h1[k];
                }
                h2[j] = Math.max(0f, acc);
            }
            float o = w[5][0];
            for (int k = 0; k < h; k++) {
                o += w[4][k] * h2[k];
            }
            out[r] = x[base + Features.PRIOR_INDEX] * Features.PRIOR_SCALE + bound * (float) Math.tanh(o);
        }
        return out;
    }
}
