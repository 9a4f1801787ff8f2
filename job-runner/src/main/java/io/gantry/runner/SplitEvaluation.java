package io.gantry.runner;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.ParameterStore;
import io.gantry.training.model.Datasets;

/** Scores a model's current weights on one split of its dataset, in chunks of 512 rows, without gradients. */
final class SplitEvaluation {

    private SplitEvaluation() {
    }

    static Training.Evaluation of(GraphBlock block, ParameterStore store, NDManager manager, Shape sampleShape,
                                  int classes, Datasets.Split split) {
        int n = split.size();
        int features = (int) sampleShape.size();
        int[][] confusion = new int[classes][classes];
        double lossSum = 0;
        int correct = 0;
        int chunk = 512;
        for (int from = 0; from < n; from += chunk) {
            int b = Math.min(chunk, n - from);
            float[] x = new float[b * features];
            for (int i = 0; i < b; i++) {
                System.arraycopy(split.x()[from + i], 0, x, i * features, features);
            }
            try (NDManager m = manager.newSubManager()) {
                NDArray logits = block.forward(store, new NDList(m.create(x, new Shape(b).addAll(sampleShape))), false)
                        .singletonOrThrow();
                float[] logp = logits.logSoftmax(1).toFloatArray();
                for (int i = 0; i < b; i++) {
                    int y = split.y()[from + i];
                    int best = 0;
                    for (int c = 1; c < classes; c++) {
                        if (logp[i * classes + c] > logp[i * classes + best]) {
                            best = c;
                        }
                    }
                    lossSum -= logp[i * classes + y];
                    confusion[y][best]++;
                    if (best == y) {
                        correct++;
                    }
                }
            }
        }
        return new Training.Evaluation(lossSum / n, (double) correct / n, confusion);
    }
}
