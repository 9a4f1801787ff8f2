package io.gantry.events;

import java.time.Instant;
import java.util.List;

/** The job's pods are bound and running on {@code nodes}. */
public record JobStarted(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        Instant submittedAt,
        String policyVersion) implements LifecycleEvent {

    public static final String TYPE = "JobStarted";

    public JobStarted {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    @Override
    public void checkBody(Violations v) {
        v.notBlank("jobId", jobId);
        v.notEmpty("nodes", nodes);
        v.resources("perTask", perTask);
    }
}
