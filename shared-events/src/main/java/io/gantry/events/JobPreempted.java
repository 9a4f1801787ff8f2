package io.gantry.events;

import java.time.Instant;
import java.util.List;

/**
 * The job was stopped to make room and goes back to the queue; {@code nodes} are released. {@code attempt} is the
 * stint that stopped (absent on the wire means 1); {@code ranS}, when known, how long that stint ran in the job's
 * own seconds (the simulated cluster's trace seconds), so the job resumes with the rest of its run.
 */
public record JobPreempted(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        String reason,
        Integer attempt,
        Double ranS) implements LifecycleEvent {

    public static final String TYPE = "JobPreempted";

    public JobPreempted {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        attempt = attempt == null ? 1 : attempt;
    }

    /** The first stint stopped, for how long it ran unknown (Kubernetes evicted it). */
    public JobPreempted(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user,
                        List<String> nodes, ResourceAmounts perTask, String reason) {
        this(eventId, schemaVersion, occurredAt, jobId, user, nodes, perTask, reason, 1, null);
    }

    @Override
    public void checkBody(Violations v) {
        v.endedStint(jobId, user, nodes, perTask);
        v.notBlank("reason", reason);
        v.atLeast("attempt", attempt, 1);
        v.finiteSeconds("ranS", ranS);
    }
}
