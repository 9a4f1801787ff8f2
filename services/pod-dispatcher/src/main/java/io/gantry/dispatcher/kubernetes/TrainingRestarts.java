package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobFailed;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.TrainingSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.jboss.logging.Logger;

/**
 * A running training job re-tuned ({@code JobTuned} update): its pods are deleted (the kubelet sends the runner SIGTERM;
 * it writes a checkpoint and exits) and, once they are gone, made again for the next revision with the new spec, on
 * the same checkpoint sub-path of the claim, and bound to the nodes the old ones ran on. It is one stint all along: the
 * job is bound by one decision, announced started once, and its old pods' deletion is no end of it. Called holding the
 * cluster's lock ({@code lock}), on which pod deletions are signalled.
 */
final class TrainingRestarts {

    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);

    private final JobBook book;
    private final PodCache cache;
    private final PodOperations ops;
    private final BiConsumer<LifecycleEvent, String> report;
    private final Object lock;

    TrainingRestarts(JobBook book, PodCache cache, PodOperations ops, BiConsumer<LifecycleEvent, String> report,
                     Object lock) {
        this.book = book;
        this.cache = cache;
        this.ops = ops;
        this.report = report;
        this.lock = lock;
    }

    /** Restarts the job with {@code spec} when it runs here as a training job with another batch size; else nothing. */
    void retune(String jobId, TrainingSpec spec) {
        TrackedJob job = book.tracked.get(jobId);
        if (job == null || job.ended || job.restarting || job.stoppedFor != null) {
            return; // not running here: its next pods are made from the newest revision anyway
        }
        List<Pod> old = cache.podsOf(jobId, job.attempt).stream()
                .filter(p -> TrainingPods.revisionOf(p) == job.revision && p.getMetadata().getDeletionTimestamp() == null)
                .toList();
        TrainingSpec current = book.trainingSpecs.get(jobId);
        boolean training = old.stream().allMatch(TrainingPods::isTraining) && !old.isEmpty();
        if (!training || current != null && current.batchSize().equals(spec.batchSize())) {
            return;
        }
        int revision = job.revision + 1;
        LOG.infof("re-tuning job %s (attempt %d): batch size %s -> %d; replacing %d pod(s) by revision %d", jobId,
                job.attempt, current == null ? "?" : current.batchSize(), spec.batchSize(), old.size(), revision);
        job.restarting = true;
        old.forEach(ops::deleteQuietly);
        // The old pods' deletions are no end of the job (it is restarting), so their being gone is all to wait for.
        if (!Preemptor.awaitGone(cache, lock, jobId, job.attempt, () -> true)) {
            LOG.warnf("job %s's pods of revision %d are still terminating; its revision %d starts beside them", jobId,
                    job.revision, revision);
        }
        GantryPods.JobSpec asRunning = new GantryPods.JobSpec(jobId, job.user, job.tasks, job.perTask, null, null, null,
                null, spec);
        List<Pod> made = ops.createPods(asRunning, job.attempt, revision).stream().sorted(GantryPods.TASK_ORDER).toList();
        List<String> nodes = new ArrayList<>(job.boundTo.values());
        TrackedJob next = new TrackedJob(jobId, job.user, job.tasks, job.perTask, job.submittedAt, job.policyVersion,
                job.attempt);
        next.revision = revision;
        next.started = job.started;
        next.startedAt = job.startedAt;
        for (int i = 0; i < made.size(); i++) {
            Pod pod = made.get(i);
            String failure = i < nodes.size() ? ops.postBinding(pod, nodes.get(i)) : "no node recorded for task " + i;
            if (failure != null) {
                made.forEach(ops::deleteQuietly);
                fail(job, "re-tune to batch size " + spec.batchSize() + " failed: binding " + PodStates.key(pod)
                        + " failed (" + failure + "); its pods were deleted");
                return;
            }
            next.lastSeen.put(pod.getMetadata().getName(), pod);
            next.bound(pod.getMetadata().getName(), nodes.get(i));
        }
        book.tracked.put(jobId, next);
        book.trainingSpecs.put(jobId, spec);
    }

    private void fail(TrackedJob job, String reason) {
        job.ended = true;
        book.tracked.remove(job.jobId);
        book.ended.add(job.jobId);
        report.accept(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), job.jobId, job.user,
                job.nodes(), job.perTask, reason, false), "retune_failed");
    }
}
