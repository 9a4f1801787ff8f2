package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobPreempted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * Stops a victim's stint before the decision that needs its room is bound (see {@link KubernetesCluster#preempt}).
 * Called holding {@code lock}, the cluster's, on which pod deletions are signalled.
 */
final class Preemptor {

    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);
    /** How long a preemption waits for the victim's pods to go (Kubernetes' default grace period is 30 s). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(120);

    private final JobBook book;
    private final PodCache cache;
    private final PodOperations ops;
    private final BiConsumer<LifecycleEvent, String> report;
    private final Object lock;

    Preemptor(JobBook book, PodCache cache, PodOperations ops, BiConsumer<LifecycleEvent, String> report, Object lock) {
        this.book = book;
        this.cache = cache;
        this.ops = ops;
        this.report = report;
        this.lock = lock;
    }

    void preempt(Preemption victim, SchedulingDecision forDecision) {
        String jobId = victim.jobId();
        int attempt = victim.attempt();
        if (GantryPods.isForeignJobId(jobId) || book.ended.contains(jobId)) {
            return;
        }
        TrackedJob job = book.tracked.get(jobId);
        Integer resumes = book.resumable.get(jobId);
        if (job == null && (attempt == 1 ? !book.decided.contains(jobId) : resumes != null && resumes == attempt)) {
            book.decided.add(jobId);
            book.resumable.put(jobId, attempt + 1);
            cache.podsOf(jobId, attempt).forEach(ops::deleteQuietly);
            GantryPods.JobSpec spec = book.submittedSpecs.get(jobId);
            report.accept(new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId,
                    spec == null ? null : spec.user(), List.of(), spec == null ? null : spec.perTask(),
                    "preempted to make room for job " + forDecision.jobId() + " before its own decision arrived",
                    attempt, 0.0), null);
            return;
        }
        if (job == null || job.attempt != attempt) {
            return; // that stint has ended already
        }
        job.stoppedFor = forDecision.jobId();
        List<Pod> stopping = cache.podsOf(jobId, attempt).stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
        LOG.infof("preempting job %s (attempt %d) for job %s: deleting %d pod(s)", jobId, attempt, forDecision.jobId(),
                stopping.size());
        stopping.forEach(ops::deleteQuietly);
        // Also until the stint has ended here: the informer empties its cache before its handler (which needs the lock
        // held here) translates the deletion, and a decision bound before that finds the job still decided and is
        // ignored; a re-size, whose decision is the job's own next attempt, was lost that way.
        if (!awaitGone(cache, lock, jobId, attempt, () -> job.ended)) {
            LOG.warnf("job %s's pods are still terminating after %s; job %s is bound into room they may still hold",
                    jobId, STOP_TIMEOUT, forDecision.jobId());
        }
    }

    /**
     * Waits (at most {@link #STOP_TIMEOUT}) until the stint's pods are gone and {@code handled} holds, holding
     * {@code lock}, on which the pod informer signals each deletion once it has handled it; false when some are still
     * there or their deletion was not handled in time.
     */
    static boolean awaitGone(PodCache cache, Object lock, String jobId, int attempt, BooleanSupplier handled) {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        while ((!cache.podsOf(jobId, attempt).isEmpty() || !handled.getAsBoolean()) && System.nanoTime() < deadline) {
            try {
                lock.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return cache.podsOf(jobId, attempt).isEmpty() && handled.getAsBoolean();
    }
}
