package io.gantry.events;

import java.time.Instant;
import java.util.List;

/**
 * The scheduler's choice to start a job now on the named nodes, on {@code gantry.scheduling.decisions} keyed
 * by {@code jobId}. {@code nodes.get(i)} holds task i. Every decision names the policy and version that made it.
 */
public record SchedulingDecision(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        Double durationS,
        Instant submittedAt,
        String policy,
        String policyVersion) implements GantryEvent {

    public static final String TYPE = "SchedulingDecision";

    public SchedulingDecision {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    @Override
    public String key() {
        return jobId;
    }

    @Override
    public void checkBody(Violations v) {
        v.notBlank("jobId", jobId);
        v.notEmpty("nodes", nodes);
        v.resources("perTask", perTask);
        v.present("submittedAt", submittedAt);
        v.notBlank("policy", policy);
        v.notBlank("policyVersion", policyVersion);
    }
}
