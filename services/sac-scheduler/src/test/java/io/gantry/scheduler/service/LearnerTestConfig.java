package io.gantry.scheduler.service;

import io.gantry.scheduler.config.LearnerConfig;
import io.gantry.scheduler.config.SchedulerConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The scheduler's and the learner's settings as the service reads them, for tests that build a learner by hand. */
final class LearnerTestConfig {

    private LearnerTestConfig() {
    }

    /** The mapping {@code type} as the service reads it: its own defaults, but for {@code values}. */
    static <T> T config(Class<T> type, Map<String, String> values) {
        // Quarkus' own Duration converter, so "1s" reads as the application reads it.
        return new SmallRyeConfigBuilder().withMapping(type)
                .withConverter(Duration.class, 200, new DurationConverter()).withDefaultValues(values).build()
                .getConfigMapping(type);
    }

    /** The default policy, sac with preemption, at the cluster's own pace. */
    static SchedulerConfig sac() {
        return config(SchedulerConfig.class, Map.of("gantry.scheduler.time-scale", "1"));
    }

    /** The learner's defaults, but for {@code values} (keys without the {@code gantry.scheduler.learner.} prefix). */
    static LearnerConfig learner(Map<String, String> values) {
        Map<String, String> prefixed = new HashMap<>();
        values.forEach((k, v) -> prefixed.put("gantry.scheduler.learner." + k, v));
        return config(LearnerConfig.class, prefixed);
    }
}
