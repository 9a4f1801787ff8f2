package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The Philly window both simulator-vs-live equivalence tests replay (in-process in sac-scheduler, through the broker
 * in system-tests): the real trace shaped to load 1.3 on the given nodes, seed 11. Without the trace the test is
 * skipped, except under {@code CI=true}, where that is a failure.
 */
public final class EquivalenceWindow {

    private EquivalenceWindow() {
    }

    public static List<JobRequest> philly(List<NodeSpec> nodes, int jobs) {
        Path file = TraceFormat.PHILLY.defaultFile();
        if (file == null || !Files.isRegularFile(file)) {
            String why = "the Philly trace is not at " + file + " (set gantry.shared.dir)";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(why);
            }
            Assumptions.assumeTrue(false, why);
        }
        List<JobRequest> trace = TraceFormat.PHILLY.loader().load(file, NodeShape.ALIBABA_G2).jobs();
        return WorkloadShaper.shape(trace, nodes, 1.3, jobs, 11).jobs();
    }
}
