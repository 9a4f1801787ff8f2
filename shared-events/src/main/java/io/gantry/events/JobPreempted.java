package io.gantry.events;

import java.time.Instant;
import java.util.List;

/** The job was stopped to make room and goes back to the queue; {@code nodes} are released. */
public record JobPreempted(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        String reason) implements LifecycleEvent {

    public static final String TYPE = "JobPreempted";

    public JobPreempted {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    @Override
    public void checkBody(Violations v) {
        v.notBlank("jobId", jobId);
        v.notBlank("reason", reason);
    }
}
