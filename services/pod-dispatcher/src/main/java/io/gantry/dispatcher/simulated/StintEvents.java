package io.gantry.dispatcher.simulated;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import java.time.Instant;
import java.util.List;

/** The lifecycle events the simulated cluster announces of a stint's end, and a stint's decision as its start tells. */
final class StintEvents {

    static final String RESTORE_OVERLAP_REASON = "stopped when pod-dispatcher restarted: a later start holds its "
            + "room (its preemption was under way when the dispatcher stopped)";

    private StintEvents() {
    }

    /** The stint ran {@code ranS} simulated seconds and ended well. */
    static JobCompleted completed(RunningJob job, double ranS) {
        SchedulingDecision d = job.decision();
        return new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(),
                d.user(), d.nodes(), d.perTask(), d.submittedAt(), ranS);
    }

    /** The real job's runner failed, or was killed for memory. */
    static JobFailed failed(RunningJob job, String reason, boolean oomKilled) {
        SchedulingDecision d = job.decision();
        return new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(), d.user(),
                d.nodes(), d.perTask(), reason, oomKilled);
    }

    /** Why {@code victim} stops: room for another job, or its own re-size (its next attempt asks for other room). */
    static String stopReason(Preemption victim, SchedulingDecision forDecision) {
        return (victim.jobId().equals(forDecision.jobId())
                ? "re-sized: stopped by its own attempt " + forDecision.attempt() + ", which asks for other room"
                : "preempted to make room for job " + forDecision.jobId()) + " (decision of " + forDecision.policy()
                + " " + forDecision.policyVersion() + ")";
    }

    /** The stint was stopped after {@code ranS} simulated seconds. */
    static JobPreempted preempted(RunningJob job, String reason, double ranS) {
        SchedulingDecision d = job.decision();
        return new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(), d.user(),
                d.nodes(), d.perTask(), reason, job.attempt(), ranS);
    }

    /** The victim's stint was preempted before its own decision arrived. */
    static JobPreempted preemptedBeforeDecision(Preemption victim, String reason) {
        // Nothing of it is known here but its id: no user, nodes or resources were ever held.
        return new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), victim.jobId(), null,
                List.of(), null, reason + ", before its own decision arrived", victim.attempt(), 0.0);
    }

    /** A stint that ran before a restart ended while the dispatcher was down, at {@code endedAt}. */
    static JobCompleted completedWhileDown(JobStarted stint, Instant endedAt, double durationS) {
        return new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, endedAt, stint.jobId(), stint.user(),
                stint.nodes(), stint.perTask(), stint.submittedAt(), durationS);
    }

    /** A stint that ran before a restart no longer fits its nodes: a later start took its room. */
    static JobPreempted overlapped(JobStarted stint, double ranS) {
        return new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), stint.jobId(),
                stint.user(), stint.nodes(), stint.perTask(), RESTORE_OVERLAP_REASON, stint.attempt(), ranS);
    }

    /** The decision a stint was started by, as far as its JobStarted tells, when the decisions topic lost it. */
    static SchedulingDecision decisionOf(JobStarted s, double durationS) {
        return new SchedulingDecision(s.eventId(), GantryEvent.SCHEMA_VERSION, s.occurredAt(), s.jobId(), s.user(),
                s.nodes(), s.perTask(), durationS, s.submittedAt(), "unknown", s.policyVersion(), s.attempt(), List.of());
    }
}
