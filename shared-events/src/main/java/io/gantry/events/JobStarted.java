package io.gantry.events;

import java.time.Instant;
import java.util.List;

/**
 * The job's pods are bound and running on {@code nodes}. {@code attempt} is the decision's: 1 for the first start,
 * more after preemptions (absent on the wire means 1).
 */
public record JobStarted(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        Instant submittedAt,
        String policyVersion,
        Integer attempt) implements LifecycleEvent {

    public static final String TYPE = "JobStarted";

    public JobStarted {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        attempt = attempt == null ? 1 : attempt;
    }

    /** A first start. */
    public JobStarted(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user,
                      List<String> nodes, ResourceAmounts perTask, Instant submittedAt, String policyVersion) {
        this(eventId, schemaVersion, occurredAt, jobId, user, nodes, perTask, submittedAt, policyVersion, 1);
    }

    @Override
    public void checkBody(Violations v) {
        v.placedStint(jobId, user, nodes, perTask);
        v.atLeast("attempt", attempt, 1);
    }
}
