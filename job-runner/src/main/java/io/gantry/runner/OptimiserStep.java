package io.gantry.runner;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.Parameter;
import io.gantry.events.TrainingSpec;
import java.util.List;

/**
 * One step of the spec's optimiser (Adam, or SGD with momentum) on every trainable parameter, written out rather than
 * taken from DJL's optimisers so that its state (the moments) can be checkpointed and restored exactly.
 */
final class OptimiserStep {

    static final double BETA1 = 0.9;
    static final double BETA2 = 0.999;
    static final double EPSILON = 1e-8;
    static final double MOMENTUM = 0.9;

    private OptimiserStep() {
    }

    /**
     * Updates each parameter from its gradient, then zeroes the gradient. {@code moment1} is Adam's first moment or
     * SGD's velocity, {@code moment2} Adam's second moment; {@code t} is the 1-based step; temporaries go to {@code m}.
     */
    static void apply(TrainingSpec spec, List<Parameter> trainable, List<NDArray> moment1, List<NDArray> moment2, long t,
                      NDManager m) {
        float lr = spec.learningRate().floatValue();
        boolean adam = "adam".equals(spec.optimizer());
        for (int i = 0; i < trainable.size(); i++) {
            NDArray w = trainable.get(i).getArray();
            NDArray g = w.getGradient();
            g.attach(m);
            if (adam) {
                NDArray m1 = moment1.get(i);
                NDArray m2 = moment2.get(i);
                m1.muli((float) BETA1).addi(g.mul((float) (1 - BETA1)));
                m2.muli((float) BETA2).addi(g.square().muli((float) (1 - BETA2)));
                double c1 = 1 - Math.pow(BETA1, t);
                double c2 = 1 - Math.pow(BETA2, t);
                // Temporaries belong to the manager of their first operand: attached to the step's, freed with it.
                NDArray mHat = m1.div((float) c1);
                mHat.attach(m);
                NDArray vHat = m2.div((float) c2);
                vHat.attach(m);
                w.subi(mHat.divi(vHat.sqrt().addi((float) EPSILON)).muli(lr));
            } else {
                NDArray v = moment1.get(i);
                v.muli((float) MOMENTUM).addi(g);
                NDArray stepSize = v.mul(lr);
                stepSize.attach(m);
                w.subi(stepSize);
            }
            g.subi(g);
        }
    }
}
