package io.gantry.scheduling.sac;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;
import java.util.List;

/**
 * DJL's JVM-wide settings for every SAC agent: offline, and one PyTorch thread per pool unless the caller set
 * otherwise. One thread is what makes a seed's figures repeatable: with several, PyTorch's BLAS splits a product's
 * sums by the threads it picks at that moment, so two runs of the same seed can round differently (the likely cause
 * of a test comparing two replays of one seed failing on a machine with more cores; it did not reproduce on two).
 * It is also faster here: on two shared cores PyTorch's default pools fight the services and the simulator
 * (TOOLCHAIN.md, DJL).
 *
 * <p>DJL reads the properties once, when the engine loads; {@link SacAgent} calls {@link #useOne()} as it loads, so
 * normally before anything touches the engine. A property set on the command line is left as it is.
 */
public final class TorchThreads {

    private static final String INTRA_OP = "ai.djl.pytorch.num_threads";
    private static final String INTER_OP = "ai.djl.pytorch.num_interop_threads";

    private TorchThreads() {
    }

    /** Sets what the caller did not set, then loads the engine with it. Idempotent. */
    public static void useOne() {
        for (String p : List.of(INTRA_OP, INTER_OP)) {
            if (System.getProperty(p) == null) {
                System.setProperty(p, "1");
            }
        }
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        Engine.getInstance();
        // An engine something else loaded earlier ignored the property; the intra-op pool, the one a product's sums
        // are split over, can still be resized (the inter-op pool cannot once started, and decides no sums).
        Integer wanted = Integer.getInteger(INTRA_OP); // null when not a number, which DJL ignores as well
        if (wanted != null && wanted > 0 && JniUtils.getNumThreads() != wanted) {
            JniUtils.setNumThreads(wanted);
        }
    }
}
