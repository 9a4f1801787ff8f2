package io.gantry.events;

import java.time.Instant;
import java.util.List;

/** The job failed; {@code nodes} it held are released. {@code oomKilled} marks a memory request that was too small. */
public record JobFailed(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        String reason,
        boolean oomKilled) implements LifecycleEvent {

    public static final String TYPE = "JobFailed";

    public JobFailed {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    @Override
    public void checkBody(Violations v) {
        v.endedStint(jobId, user, nodes, perTask);
        v.notBlank("reason", reason);
    }
}
