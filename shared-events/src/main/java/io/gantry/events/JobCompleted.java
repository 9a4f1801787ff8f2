package io.gantry.events;

import java.time.Instant;
import java.util.List;

/**
 * The job finished successfully and released {@code nodes}.
 *
 * @param runtimeS how long it ran, in the cluster's (possibly accelerated) seconds
 */
public record JobCompleted(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        Instant submittedAt,
        double runtimeS) implements LifecycleEvent {

    public static final String TYPE = "JobCompleted";

    public JobCompleted {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    @Override
    public void checkBody(Violations v) {
        v.endedStint(jobId, user, nodes, perTask);
        v.finiteSeconds("runtimeS", runtimeS);
    }
}
