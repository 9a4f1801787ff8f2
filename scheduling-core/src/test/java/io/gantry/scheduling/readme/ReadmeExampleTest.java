package io.gantry.scheduling.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * scheduling-core/README.md's example policy is this module's {@link SmallestGangFirstPolicy}, word for word, and its
 * one registration line is the test resources' service file: the example compiles, registers and schedules.
 */
class ReadmeExampleTest {

    private static final Path README = Path.of("README.md");
    private static final Path SOURCE = Path.of("src/test/java/io/gantry/scheduling/readme/SmallestGangFirstPolicy.java");
    private static final Path SERVICE = Path.of("src/test/resources/META-INF/services/"
            + "io.gantry.scheduling.policy.PolicyProvider");

    @Test
    void theReadmeShowsTheCompiledExampleAndItsRegistrationLine() throws IOException {
        String readme = Files.readString(README);
        String source = Files.readString(SOURCE);
        String body = source.substring(source.indexOf("/** Fewest GPUs"));
        assertTrue(readme.contains("```java\n" + body + "```"), "README.md must show " + SOURCE + " from its Javadoc on");
        assertTrue(readme.contains(Files.readString(SERVICE).strip()), "README.md must show the registration line");
    }

    @Test
    void theRegisteredExampleSchedulesSmallestGangsFirst() {
        assertTrue(PolicyRegistry.names().contains(SmallestGangFirstPolicy.NAME));
        List<NodeSpec> nodes = List.of(new NodeSpec("n1", Resources.ofGpus(8, 96, 384)));
        List<JobRequest> jobs = new ArrayList<>();
        jobs.add(new JobRequest("holder", "u", 1, Resources.ofGpus(8, 8, 32), 0, 0, Double.NaN, 100));
        jobs.add(new JobRequest("big", "u", 1, Resources.ofGpus(8, 8, 32), 1, 0, Double.NaN, 100));
        jobs.add(new JobRequest("small", "u", 1, Resources.ofGpus(2, 8, 32), 2, 0, Double.NaN, 100));
        SimulationResult r = new Simulator(nodes, PolicyRegistry.create(SmallestGangFirstPolicy.NAME), null)
                .run(jobs, null);
        assertEquals(3, r.outcomes().size());
        double smallStart = start(r, "small");
        double bigStart = start(r, "big");
        assertEquals(100, smallStart, 1e-9, "small waits for the holder, then goes first though it came later");
        assertEquals(200, bigStart, 1e-9, "big (8 GPUs) waits for small (2 GPUs) to finish");
    }

    private static double start(SimulationResult r, String id) {
        return r.outcomes().stream().filter(o -> o.id().equals(id)).mapToDouble(JobOutcome::firstStart).findFirst()
                .orElseThrow();
    }
}
