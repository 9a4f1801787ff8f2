package io.gantry.dispatcher.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Real training jobs in the simulated cluster (a job whose {@code JobTuned} carries {@code training}): each runs as a
 * {@code job-runner} process on this machine. Environment variables override as usual, e.g.
 * {@code GANTRY_REAL_JOBS_RUNNER_JAR}, {@code GANTRY_REAL_JOBS_MAX_CONCURRENT}.
 */
@ConfigMapping(prefix = "gantry.real-jobs")
public interface RealJobsConfig {

    /** The runnable job-runner jar ({@code job-runner/target/job-runner-<version>.jar}); absent: real jobs fail, saying so. */
    Optional<String> runnerJar();

    /** Runner processes at once; more real jobs wait their turn (bound, charged, not yet training). Default: cores − 1, at least 1. */
    OptionalInt maxConcurrent();

    /** Where each job's spec, checkpoints and runner log go ({@code <dir>/<job>/}); default {@code $GANTRY_DATA_DIR/real-jobs}. */
    Optional<String> workDir();

    /** The datasets the runner reads. */
    @WithDefault("../shared/datasets")
    String datasetsDir();

    /** A run still going after this long is killed and failed: a hung runner must never stay "running". */
    @WithDefault("PT30M")
    Duration runTimeout();

    /** JVM options of each runner; the DJL one-thread and offline flags are always added. */
    @WithDefault("-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")
    String javaOpts();

    /**
     * How long a decision without {@code durationS} waits for the tuned topic to be read up to the decision's time,
     * so a real job's spec is known before it is bound (a trace job always has a duration and never waits).
     */
    @WithDefault("PT15S")
    Duration specWait();

    /**
     * The runners' own Kafka login ({@code sasl.jaas.config}, principal {@code job-runner}; {@code ./gantry up} sets
     * {@code GANTRY_REAL_JOBS_KAFKA_SASL_JAAS_CONFIG}) when the broker needs SASL: a runner never gets the dispatcher's
     * credentials. Unset against such a broker, a runner cannot report and its job fails.
     */
    Optional<String> kafkaSaslJaasConfig();
}
