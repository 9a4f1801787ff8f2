package io.gantry.events;

import java.time.Instant;
import java.util.List;

/**
 * The scheduler's choice to start a job now on the named nodes, on {@code gantry.scheduling.decisions} keyed
 * by {@code jobId}. {@code nodes.get(i)} holds task i. Every decision names the policy and version that made it.
 *
 * <p>{@code attempt} counts the job's starts: 1 for its first, one more after each preemption, so "bind a job
 * once" means once per attempt. {@code preempts} lists running jobs to stop before binding (their resources make
 * room for this one; each goes back to the queue and is announced {@link JobPreempted}); empty for most decisions.
 * For an attempt after the first, {@code durationS} is what is left of the job's run. Both fields are optional
 * on the wire: absent means attempt 1 and no preemption, as before they existed.
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
        String policyVersion,
        Integer attempt,
        List<Preemption> preempts) implements JobEvent {

    public static final String TYPE = "SchedulingDecision";

    public SchedulingDecision {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        attempt = attempt == null ? 1 : attempt;
        preempts = preempts == null ? List.of() : List.copyOf(preempts);
    }

    /** A first start that stops nothing. */
    public SchedulingDecision(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user,
                              List<String> nodes, ResourceAmounts perTask, Double durationS, Instant submittedAt,
                              String policy, String policyVersion) {
        this(eventId, schemaVersion, occurredAt, jobId, user, nodes, perTask, durationS, submittedAt, policy,
                policyVersion, 1, List.of());
    }

    @Override
    public void checkBody(Violations v) {
        v.placedStint(jobId, user, nodes, perTask);
        v.durationIfPresent("durationS", durationS);
        v.present("submittedAt", submittedAt);
        v.notBlank("policy", policy);
        v.notBlank("policyVersion", policyVersion);
        v.atLeast("attempt", attempt, 1);
        for (int i = 0; i < preempts.size(); i++) {
            Preemption p = preempts.get(i);
            if (p == null) {
                v.add("preempts[" + i + "]", "must not be null");
                continue;
            }
            p.check(v, "preempts[" + i + "]");
            if (p.jobId() != null && p.jobId().equals(jobId)) {
                v.add("preempts[" + i + "].jobId", "a job cannot preempt itself");
            }
        }
    }
}
