package io.gantry.dispatcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/** Where the real-job tests find the job-runner jar and the shared datasets it trains on. */
public final class RealRunner {

    private static final Path ROOT = Path.of(System.getProperty("gantry.root", "../..")).toAbsolutePath().normalize();

    /** The runnable job-runner jar this checkout builds. */
    public static final Path JAR = ROOT.resolve("job-runner/target/job-runner-0.1.0-SNAPSHOT.jar");

    private RealRunner() {
    }

    /** The shared datasets directory ({@code gantry.shared.dir}/datasets). */
    public static Path datasets() {
        return Path.of(System.getProperty("gantry.shared.dir", ROOT.resolve("../shared").toString()), "datasets");
    }

    /** The dispatcher's settings for real jobs: this runner, one job at a time, in {@code workDir}, 3 minutes each. */
    public static Map<String, String> oneAtATimeIn(Path workDir) {
        return Map.of("gantry.real-jobs.runner-jar", JAR.toString(), "gantry.real-jobs.max-concurrent", "1",
                "gantry.real-jobs.work-dir", workDir.toString(), "gantry.real-jobs.datasets-dir", datasets().toString(),
                "gantry.real-jobs.run-timeout", "PT3M");
    }

    /**
     * The jar; without it the test is skipped, except in CI ({@code CI=true}), where a missing runner must fail the
     * build rather than let the real-job tests pass unrun.
     */
    public static Path requireJar() {
        if (!Files.exists(JAR)) {
            String why = JAR + " is missing: build job-runner first (./mvnw -B -DskipTests package -pl job-runner -am)";
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(why);
            }
            Assumptions.abort(why);
        }
        return JAR;
    }
}
