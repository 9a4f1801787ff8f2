package io.gantry.dispatcher.kubernetes;

import static io.gantry.dispatcher.kubernetes.PodStates.disruptionOf;
import static io.gantry.dispatcher.kubernetes.PodStates.failureOf;
import static io.gantry.dispatcher.kubernetes.PodStates.key;
import static io.gantry.dispatcher.kubernetes.PodStates.phase;
import static io.gantry.dispatcher.kubernetes.PodStates.runtimeSeconds;

import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.function.BiConsumer;

/**
 * Pod phases → lifecycle events: all tasks running → started, all succeeded → completed, a task failed → failed with
 * its reason ({@code OOMKilled} marked), a task deleted → preempted when Gantry stopped it or Kubernetes marked it a
 * disruption target (a job of foreign pods fails instead), else failed as cancelled. Called under the cluster's lock.
 */
final class PodPhaseTranslator {

    private final JobBook book;
    private final PodOperations ops;
    private final BiConsumer<LifecycleEvent, String> report;

    PodPhaseTranslator(JobBook book, PodOperations ops, BiConsumer<LifecycleEvent, String> report) {
        this.book = book;
        this.ops = ops;
        this.report = report;
    }

    /** Reports what the tracked job's pods now say, at most once per state. */
    void evaluate(TrackedJob job) {
        if (job.ended) {
            return;
        }
        Collection<Pod> seen = job.lastSeen.values();
        Pod failed = seen.stream().filter(p -> "Failed".equals(phase(p))).findFirst().orElse(null);
        Pod deleted = job.deleted.stream().map(job.lastSeen::get)
                .filter(p -> p != null && !"Succeeded".equals(phase(p))).findFirst().orElse(null);
        Instant now = Instant.now();
        if (failed != null) {
            boolean oom = seen.stream().anyMatch(PodStates::oomKilled);
            end(job, new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                    job.perTask, failureOf(failed), oom), oom ? "oom_killed" : "pod_failed");
        } else if (deleted != null) {
            deleted(job, deleted, now);
        } else if (seen.size() >= job.tasks && seen.stream().allMatch(p -> "Succeeded".equals(phase(p)))) {
            announceStarted(job, now);
            end(job, new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                    job.perTask, job.submittedAt, runtimeSeconds(seen, job.startedAt, now)), null);
        } else if (seen.size() >= job.tasks && seen.stream().allMatch(p -> "Running".equals(phase(p))
                || "Succeeded".equals(phase(p)))) {
            announceStarted(job, now);
        }
    }

    /** A pod of the job was deleted before it succeeded: preempted, evicted or cancelled. */
    private void deleted(TrackedJob job, Pod deleted, Instant now) {
        String disruption = disruptionOf(deleted);
        if (job.stoppedFor != null || disruption != null && !GantryPods.isForeignJobId(job.jobId)) {
            // Back to the queue: its next start gets new pods (bind makes them for that attempt).
            String why = job.jobId.equals(job.stoppedFor) ? "re-sized: stopped by its own next attempt, which asks for "
                    + "other room (a re-tune while it ran)"
                    : job.stoppedFor != null ? "preempted to make room for job " + job.stoppedFor
                    : "evicted: pod " + key(deleted) + " was deleted by Kubernetes (" + disruption + ")";
            double ranS = job.startedAt == null ? 0 : Math.max(0, Duration.between(job.startedAt, now).toMillis() / 1000.0);
            end(job, new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user,
                    job.nodes(), job.perTask, why + "; the job resumes as attempt " + (job.attempt + 1), job.attempt,
                    ranS), null);
        } else if (disruption != null) {
            // Someone else made these pods and decides what replaces them: Gantry cannot start this job again.
            end(job, new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                    job.perTask, "evicted: pod " + key(deleted) + " was deleted by Kubernetes (" + disruption
                    + "); its pods were made outside Gantry, so Gantry cannot start it again", false), "evicted");
        } else {
            end(job, new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                    job.perTask, "cancelled: pod " + key(deleted) + " was deleted while the job ran", false),
                    "cancelled");
        }
    }

    private void announceStarted(TrackedJob job, Instant now) {
        if (job.started) {
            return;
        }
        job.started = true;
        job.startedAt = now;
        report.accept(new JobStarted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                job.perTask, job.submittedAt, job.policyVersion, job.attempt), null);
    }

    /** Reports the job's end; the gang's other pods are deleted, since a gang runs whole or not at all. */
    private void end(TrackedJob job, LifecycleEvent event, String failureCause) {
        job.ended = true;
        if (event instanceof JobPreempted) {
            book.resumable.put(job.jobId, job.attempt + 1);
        } else {
            book.ended.add(job.jobId);
        }
        book.tracked.remove(job.jobId);
        report.accept(event, failureCause);
        if (!(event instanceof JobCompleted)) {
            job.lastSeen.values().stream()
                    .filter(p -> !job.deleted.contains(p.getMetadata().getName()) && !GantryPods.isTerminal(p))
                    .forEach(ops::deleteQuietly);
        }
    }
}
