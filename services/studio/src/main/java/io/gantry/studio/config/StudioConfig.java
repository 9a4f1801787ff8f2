package io.gantry.studio.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The studio's settings: where the other services' read APIs are, and what a studio run's pod requests. */
@ConfigMapping(prefix = "gantry.studio")
public interface StudioConfig {

    /** Base URL of sac-scheduler's REST API (queue position and the reason a job waits). */
    @WithDefault("http://localhost:8084")
    String schedulerUrl();

    /** Base URL of priority-accounting's REST API (a user's fair-share priority and usage). */
    @WithDefault("http://localhost:8083")
    String priorityUrl();

    /**
     * The bearer token the studio reads the other services with (an operator's: the studio shows each user only that
     * user's runs). {@code ./gantry up} issues one; without it the other services answer 401 and the studio shows
     * its pages without their part.
     */
    Optional<String> serviceToken();

    /** How long a call to another service may take before the studio answers without its part. */
    @WithDefault("2s")
    Duration remoteTimeout();

    /** Where the shipped datasets are; the catalogue counts their samples there (null counts when missing). */
    @WithDefault("../shared/datasets")
    String datasetsDir();

    /** What one studio run's single task requests (the runner's measured needs, as in RealJobSet). */
    Request request();

    /**
     * Whether a call without a bearer token may name its user in {@code X-Gantry-User}: identification without
     * authentication, for the quick start on one machine ({@code ./gantry up} turns it on and says so). Off by default:
     * then every {@code /api} call but the catalogue needs a token with role {@code user}, and the user is the token's.
     */
    @WithDefault("false")
    boolean trustUserHeader();

    interface Request {
        @WithDefault("0")
        long gpuMilli();

        @WithDefault("1000")
        long cpuMilli();

        @WithDefault("1024")
        long memoryMib();
    }
}
