package io.gantry.training.model;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the tests find the shared datasets: {@code gantry.shared.dir}/datasets (surefire sets the property), else
 * {@code ../../shared/datasets} from the module. Missing, a test is skipped, or fails under CI. For the tests of this
 * module and of job-runner (through this module's test-jar).
 */
public final class SharedDatasets {

    private SharedDatasets() {
    }

    public static Path dir() {
        Path d = Path.of(System.getProperty("gantry.shared.dir", "../../shared"), "datasets");
        if (!Files.isDirectory(d)) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException("datasets missing at " + d.toAbsolutePath());
            }
            Assumptions.abort("datasets missing at " + d.toAbsolutePath() + " (set -Dgantry.shared.dir)");
        }
        return d;
    }
}
