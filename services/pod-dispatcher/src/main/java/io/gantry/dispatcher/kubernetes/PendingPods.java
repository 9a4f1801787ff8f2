package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobFailed;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TuningOptions;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Pods waiting for Gantry, not bound yet: pods others create with Gantry's scheduler name are submitted as one job
 * once all of them exist, and a job whose pods are all deleted before its decision is cancelled. Called under the
 * cluster's lock.
 */
final class PendingPods {

    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);

    private final JobBook book;
    private final PodCache cache;
    private final ClusterAnnouncements announcements;
    private final String schedulerName;
    private final BiConsumer<LifecycleEvent, String> report;

    PendingPods(JobBook book, PodCache cache, ClusterAnnouncements announcements, String schedulerName,
                BiConsumer<LifecycleEvent, String> report) {
        this.book = book;
        this.cache = cache;
        this.announcements = announcements;
        this.schedulerName = schedulerName;
        this.report = report;
    }

    /** A pod waiting for Gantry: a foreign job is submitted once all its pods exist; a deleted one is a cancellation. */
    void pending(String jobId, Pod pod, boolean deleted) {
        if (book.decided.contains(jobId) || book.ended.contains(jobId)) {
            return;
        }
        List<Pod> waiting = cache.podsOf(jobId).stream().filter(p -> !GantryPods.isBound(p) && !GantryPods.isTerminal(p)
                && p.getMetadata().getDeletionTimestamp() == null).toList();
        boolean known = GantryPods.createdByGantry(pod) || book.foreignSubmitted.contains(jobId);
        if (deleted || pod.getMetadata().getDeletionTimestamp() != null) {
            if (waiting.isEmpty() && known && book.cancelledBeforeBinding.add(jobId)) {
                book.ended.add(jobId);
                report.accept(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId,
                        GantryPods.userOf(pod), List.of(), GantryPods.requestsOf(pod),
                        "cancelled: its pods were deleted before Gantry scheduled them", false), "cancelled");
            }
            return;
        }
        if (GantryPods.createdByGantry(pod) || book.foreignSubmitted.contains(jobId)
                || waiting.size() < GantryPods.tasksOf(pod)) {
            return;
        }
        book.foreignSubmitted.add(jobId);
        announcements.submitted(submissionOf(jobId, waiting));
        LOG.infof("pod(s) %s with schedulerName %s submitted as job %s", waiting.stream().map(PodStates::key)
                .collect(Collectors.joining(", ")), schedulerName, jobId);
    }

    /**
     * The job of foreign pods. Its event id follows from the pods' uids, so announcing it again after a restart is a
     * redelivery to every consumer. Tuning is off and it is not preemptible: Gantry cannot change or re-create a pod
     * someone else made.
     */
    static JobSubmitted submissionOf(String jobId, List<Pod> jobPods) {
        ResourceAmounts perTask = jobPods.stream().map(GantryPods::requestsOf).reduce(NodeRoom::max).orElseThrow();
        String uids = jobPods.stream().map(p -> Objects.toString(p.getMetadata().getUid(), PodStates.key(p))).sorted()
                .collect(Collectors.joining(","));
        String eventId = UUID.nameUUIDFromBytes(("gantry-pod-submission:" + uids).getBytes(StandardCharsets.UTF_8)).toString();
        Pod first = jobPods.get(0);
        Instant created = jobPods.stream().map(p -> p.getMetadata().getCreationTimestamp()).filter(Objects::nonNull)
                .map(Instant::parse).min(Instant::compareTo).orElse(Instant.now());
        String jobName = jobId.substring(jobId.indexOf('/') + 1);
        return new JobSubmitted(eventId, GantryEvent.SCHEMA_VERSION, created, jobId, GantryPods.userOf(first), jobName,
                null, jobPods.size(), perTask, null, null, null, new TuningOptions(false, null, null, null), false);
    }
}
