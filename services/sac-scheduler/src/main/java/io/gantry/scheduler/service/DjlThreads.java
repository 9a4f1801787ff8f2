package io.gantry.scheduler.service;

import java.util.List;

/** DJL's JVM-wide settings for the learner: offline, and one PyTorch thread per pool unless set otherwise. */
final class DjlThreads {

    private DjlThreads() {
    }

    /** PyTorch's own thread pools fight the services for two cores; one thread each is also what training uses. */
    static void useOne() {
        for (String p : List.of("ai.djl.pytorch.num_threads", "ai.djl.pytorch.num_interop_threads")) {
            if (System.getProperty(p) == null) {
                System.setProperty(p, "1");
            }
        }
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
    }
}
