package io.gantry.dispatcher.kubernetes;

import static io.gantry.dispatcher.kubernetes.PodStates.describeBinding;
import static io.gantry.dispatcher.kubernetes.PodStates.key;
import static io.gantry.dispatcher.kubernetes.PodStates.phase;

import io.fabric8.kubernetes.api.model.Pod;
import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import java.util.List;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Applies a decision with the Binding subresource, one POST per pod (a real API server refuses a {@code nodeName}
 * update). Every check is made before the first POST, so a gang is bound whole or not at all; if a POST still fails
 * midway, the pods already bound are deleted, since Kubernetes cannot unbind. Called under the cluster's lock.
 */
final class PodBinder {

    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);

    private final JobBook book;
    private final PodCache cache;
    private final PodOperations ops;
    private final PlacementCheck placement;
    private final NodeMetricsPublisher publisher;
    /** Tuned training specs by job id (see {@link KubernetesCluster#useTunedSpecs}); none by default. */
    private volatile Function<SchedulingDecision, TrainingSpec> tunedSpecs = decision -> null;

    PodBinder(JobBook book, PodCache cache, PodOperations ops, PlacementCheck placement,
              NodeMetricsPublisher publisher) {
        this.book = book;
        this.cache = cache;
        this.ops = ops;
        this.placement = placement;
        this.publisher = publisher;
    }

    void useTunedSpecs(Function<SchedulingDecision, TrainingSpec> lookup) {
        this.tunedSpecs = lookup;
    }

    BindOutcome bind(SchedulingDecision d) {
        String jobId = d.jobId();
        if (book.cancelledBeforeBinding.contains(jobId)) {
            book.decided.add(jobId);
            return new BindOutcome.NothingToBind("its pods were deleted before it was scheduled; nothing bound");
        }
        Integer resumes = book.resumable.get(jobId);
        boolean resuming = resumes != null && d.attempt() >= resumes;
        if (!resuming && (book.decided.contains(jobId) || book.ended.contains(jobId))) {
            return new BindOutcome.AlreadyDecided(jobId);
        }
        int attempt = d.attempt();
        List<Pod> jobPods = cache.podsOf(jobId, attempt);
        if (jobPods.size() != d.nodes().size() && !GantryPods.isForeignJobId(jobId)) {
            // The informer may not have seen pods created a moment ago: ask the API server.
            jobPods = ops.listPods(jobId, attempt);
        }
        if (jobPods.isEmpty()) {
            if (GantryPods.isForeignJobId(jobId)) {
                book.decided.add(jobId);
                return new BindOutcome.NothingToBind("no pod of it is left (deleted before it was scheduled); nothing bound");
            }
            jobPods = createPods(d);
        }
        BindOutcome refused = refusal(d, jobPods);
        return refused != null ? refused : bindAll(d, jobPods);
    }

    /**
     * The decision overtook the submission (they travel on different topics), or the job resumes after an eviction:
     * make the pods now. A resumed job runs what is left of it (the decision's durationS).
     */
    private List<Pod> createPods(SchedulingDecision d) {
        String jobId = d.jobId();
        int attempt = d.attempt();
        GantryPods.JobSpec submittedSpec = book.submittedSpecs.get(jobId);
        TrainingSpec tuned = tunedSpecs.apply(d);
        GantryPods.JobSpec spec = submittedSpec == null
                ? new GantryPods.JobSpec(jobId, d.user(), d.nodes().size(), d.perTask(), null, null, null, d.durationS(),
                        tuned)
                : attempt == 1 ? submittedSpec : submittedSpec.withDurationS(d.durationS());
        if (spec.training() != null || tuned != null) {
            // A training job runs with what was decided: the tuner's requests (the decision's) and its spec.
            spec = spec.asDecided(d.nodes().size(), d.perTask(), tuned);
            book.trainingSpecs.put(jobId, spec.training());
        }
        return ops.createPods(spec, attempt).stream().sorted(GantryPods.TASK_ORDER).toList();
    }

    /** Null when the pods may be bound as decided, else why not (the job then counts as decided). */
    private BindOutcome refusal(SchedulingDecision d, List<Pod> jobPods) {
        String jobId = d.jobId();
        for (Pod p : jobPods) {
            if (GantryPods.isBound(p)) {
                book.decided.add(jobId);
                return new BindOutcome.NothingToBind("pod " + key(p) + " is already bound to " + p.getSpec().getNodeName()
                        + "; nothing bound");
            }
            if (GantryPods.isTerminal(p) || p.getMetadata().getDeletionTimestamp() != null) {
                book.decided.add(jobId);
                return new BindOutcome.NothingToBind("pod " + key(p) + " is gone (" + phase(p) + "); nothing bound");
            }
        }
        if (jobPods.size() != d.nodes().size()) {
            book.decided.add(jobId);
            return new BindOutcome.Refused("gang_mismatch", "the job has " + jobPods.size() + " pod(s) but the decision "
                    + "places " + d.nodes().size() + " task(s)");
        }
        String refusal = placement.whyNotPlaceable(jobPods, d.nodes());
        if (refusal != null) {
            book.decided.add(jobId);
            return new BindOutcome.Refused(refusal.substring(0, refusal.indexOf(':')),
                    refusal.substring(refusal.indexOf(':') + 1).trim());
        }
        return null;
    }

    /**
     * POSTs every pod's Binding in task order, each after its GPU device annotations when the decision chose devices
     * ({@link GantryPods#GPU_DEVICES_ANNOTATION}); on a failure, deletes the pods bound before it.
     */
    private BindOutcome bindAll(SchedulingDecision d, List<Pod> jobPods) {
        String jobId = d.jobId();
        book.decided.add(jobId);
        book.resumable.remove(jobId);
        TrackedJob job = TrackedJob.decided(d, jobPods);
        book.tracked.put(jobId, job);
        for (int i = 0; i < jobPods.size(); i++) {
            Pod pod = jobPods.get(i);
            String failure = d.gpuDevices().isEmpty() ? null
                    : ops.annotate(pod, GantryPods.gpuDeviceAnnotations(d.gpuDevices().get(i), d.perTask().gpuMilli()));
            if (failure == null) {
                failure = ops.postBinding(pod, d.nodes().get(i));
            }
            if (failure != null) {
                book.tracked.remove(jobId);
                book.ended.add(jobId);
                List<Pod> alreadyBound = jobPods.subList(0, i);
                alreadyBound.forEach(ops::deleteQuietly);
                return new BindOutcome.Refused("bind_failed", "binding " + key(pod) + " to " + d.nodes().get(i)
                        + " failed (" + failure + "); " + alreadyBound.size() + " pod(s) of the gang bound before it were "
                        + "deleted, since a pod cannot be unbound");
            }
            job.bound(pod.getMetadata().getName(), d.nodes().get(i));
        }
        LOG.infof("bound job %s: %s", jobId, describeBinding(jobPods, d.nodes()));
        d.nodes().forEach(publisher::publishNodeAsync);
        return new BindOutcome.Bound();
    }
}
