package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.events.JobStarted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A job Gantry bound (or found bound), with the last state seen of each of its pods. */
final class TrackedJob {
    final String jobId;
    final String user;
    final int tasks;
    final ResourceAmounts perTask;
    final Instant submittedAt;
    final String policyVersion;
    /** Which start of the job this is. */
    final int attempt;
    /** Pod name → node, in task order. */
    final Map<String, String> boundTo = new LinkedHashMap<>();
    final Map<String, Pod> lastSeen = new LinkedHashMap<>();
    final Set<String> deleted = new LinkedHashSet<>();
    boolean started;
    Instant startedAt;
    boolean ended;
    /** The job Gantry stops this one for (its pods are being deleted); null unless preempted by a decision. */
    String stoppedFor;
    /** The re-tune its pods run ({@link TrainingPods#revisionOf}); pods of a lower one are being replaced. */
    int revision;
    /** True while a re-tune replaces its pods: their deletion is no end of the job. */
    boolean restarting;

    TrackedJob(String jobId, String user, int tasks, ResourceAmounts perTask, Instant submittedAt,
                       String policyVersion, int attempt) {
        this.jobId = jobId;
        this.user = user;
        this.tasks = tasks;
        this.perTask = perTask;
        this.submittedAt = submittedAt;
        this.policyVersion = policyVersion;
        this.attempt = attempt;
    }

    static TrackedJob decided(SchedulingDecision d, List<Pod> jobPods) {
        TrackedJob job = new TrackedJob(d.jobId(), d.user(), jobPods.size(), d.perTask(), d.submittedAt(),
                d.policyVersion(), d.attempt());
        jobPods.forEach(p -> job.lastSeen.put(p.getMetadata().getName(), p));
        return job;
    }

    /** A job found bound: from what the topic said when it started, else from its pods. */
    static TrackedJob adopted(String jobId, Pod pod, List<Pod> jobPods, JobStarted startedBefore) {
        List<Pod> all = new ArrayList<>(jobPods);
        if (all.stream().noneMatch(p -> p.getMetadata().getName().equals(pod.getMetadata().getName()))) {
            all.add(pod);
        }
        all.sort(GantryPods.TASK_ORDER);
        int tasks = Math.max(all.size(), GantryPods.tasksOf(pod));
        TrackedJob job;
        if (startedBefore != null) {
            job = new TrackedJob(jobId, startedBefore.user(), tasks, startedBefore.perTask(),
                    startedBefore.submittedAt(), startedBefore.policyVersion(), GantryPods.attemptOf(pod));
            job.started = true;
            job.startedAt = startedBefore.occurredAt();
        } else {
            Instant created = pod.getMetadata().getCreationTimestamp() == null ? Instant.now()
                    : Instant.parse(pod.getMetadata().getCreationTimestamp());
            job = new TrackedJob(jobId, GantryPods.userOf(pod), tasks, GantryPods.requestsOf(pod), created,
                    "unknown: bound before pod-dispatcher restarted", GantryPods.attemptOf(pod));
        }
        job.revision = TrainingPods.revisionOf(pod);
        for (Pod p : all) {
            job.lastSeen.put(p.getMetadata().getName(), p);
            if (GantryPods.isBound(p)) {
                job.boundTo.put(p.getMetadata().getName(), p.getSpec().getNodeName());
            }
        }
        return job;
    }

    void bound(String podName, String node) {
        boundTo.put(podName, node);
    }

    void see(Pod pod, boolean wasDeleted) {
        String name = pod.getMetadata().getName();
        lastSeen.put(name, pod);
        if (GantryPods.isBound(pod)) {
            boundTo.putIfAbsent(name, pod.getSpec().getNodeName());
        }
        if (wasDeleted) {
            deleted.add(name);
        }
    }

    List<String> nodes() {
        List<String> nodes = new ArrayList<>(boundTo.values());
        return nodes.isEmpty() ? List.of("unknown") : nodes;
    }
}
