package io.gantry.dispatcher.cluster;

import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobFailed;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;

/**
 * The cluster the dispatcher carries decisions out on: the simulated cluster (the embedded default) or a
 * Kubernetes API server, chosen by {@code gantry.dispatcher.cluster}. The dispatcher's own rules (a job is bound
 * once, a refusal is announced, the decision is acknowledged after its consequence is written) are the same for
 * both; only placing pods and learning what became of them differ.
 */
public interface ClusterBackend {

    /**
     * Binds task {@code i} of the decision to {@code nodes.get(i)}, all tasks or none; a job's stint (its
     * {@code attempt}) is bound at most once.
     */
    BindOutcome bind(SchedulingDecision decision);

    /**
     * Stops {@code victim}'s stint so {@code forDecision} can be bound in its place, and reports it preempted to
     * {@code events}. A stint that has already ended is left alone; one whose decision has not arrived yet is
     * never bound.
     */
    void preempt(Preemption victim, SchedulingDecision forDecision, JobEvents events);

    /**
     * True when a bound job runs at once (simulated pods), so the dispatcher announces {@code JobStarted} with the
     * bind; false when the cluster reports the start later (a kubelet pulls images first) through {@link JobEvents}.
     */
    boolean startsOnBind();

    /** Called after a {@link BindOutcome.Bound} job's start was handled; the cluster reports its end to {@code events}. */
    void run(SchedulingDecision decision, JobEvents events);

    /**
     * Picks up after a restart, before any decision is taken: jobs on the lifecycle topic are never bound again,
     * and what the cluster says about the jobs that were running is reported to {@code events}.
     */
    void resume(LifecycleHistoryReader.History history, JobEvents events);

    /**
     * The owner's request to stop a job for good: the {@link JobFailed} (reason {@link JobCancelRequested#REASON}) to
     * announce when a stint of it was stopped here, else null. A job not bound yet must be refused when its decision
     * comes. The Kubernetes cluster does not stop pods on a cancel request yet: it answers null, and the job runs on.
     */
    default JobFailed cancel(JobCancelRequested request) {
        return null;
    }

    /** Jobs holding resources on the cluster now. */
    int runningJobs();
}
