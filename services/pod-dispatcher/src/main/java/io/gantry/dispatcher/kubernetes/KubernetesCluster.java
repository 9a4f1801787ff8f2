package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.cluster.SubmissionTaker;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import java.time.Instant;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Gantry as the Kubernetes scheduler {@code gantry} (DESIGN §3). Informers on nodes and pods ({@link PodCache}) keep
 * the API server's state in memory; that state, not this object, is the truth a restart resumes from. This class
 * resumes, takes submissions and routes pod events; the work is done by:
 *
 * <ul>
 *   <li>{@link NodeMetricsPublisher}: nodes' allocatable {@code cpu}, {@code memory}, {@code nvidia.com/gpu} and what
 *       pods request on them are published as {@link NodeMetrics} (source {@code kubernetes}); a cordoned, not-ready
 *       or tainted node is published unschedulable and is refused by {@link #bind} ({@link PlacementCheck}).</li>
 *   <li>{@link PodOperations}: submitted jobs become unbound pods with {@code schedulerName: gantry}
 *       ({@link #submitted}); {@link PendingPods}: pods others create with that scheduler name become
 *       {@link JobSubmitted} events (see {@link GantryPods} for job ids).</li>
 *   <li>{@link PodBinder}: a decision is applied with the Binding subresource, one POST per pod, a gang whole or not
 *       at all.</li>
 *   <li>{@link PodPhaseTranslator}: pod phases become lifecycle events (started, completed, failed, preempted when
 *       Gantry stopped the job or Kubernetes marked it a disruption target, else cancelled).</li>
 *   <li>{@link Preemptor}: a decision's preemptions are carried out first ({@link #preempt}): the victim's pods are
 *       deleted and gone before the decision is bound. A job starts again as its next attempt on new pods
 *       ({@code <pod>-a<k>}); binding is once per attempt.</li>
 * </ul>
 *
 * The job book ({@link JobBook}) is guarded by this object's lock; the helpers are called holding it.
 */
public final class KubernetesCluster implements ClusterBackend, SubmissionTaker, AutoCloseable {

    public static final String SOURCE = "kubernetes";
    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);

    private final DispatcherConfig.Kubernetes config;
    private final JobBook book = new JobBook();
    private final PodCache cache;
    private final PodOperations ops;
    private final NodeMetricsPublisher publisher;
    private final PodBinder binder;
    private final Preemptor preemptor;
    private final PodPhaseTranslator translator;
    private final PendingPods pendingPods;
    private final TrainingRestarts restarts;
    private JobEvents events;

    public KubernetesCluster(KubernetesClient client, DispatcherConfig.Kubernetes config,
                             ClusterAnnouncements announcements) {
        this.config = config;
        this.cache = new PodCache(client, config);
        this.ops = new PodOperations(client, config);
        PlacementCheck placement = new PlacementCheck(cache, book);
        this.publisher = new NodeMetricsPublisher(cache, placement, announcements, this);
        this.binder = new PodBinder(book, cache, ops, placement, publisher);
        this.preemptor = new Preemptor(book, cache, ops, this::report, this);
        this.translator = new PodPhaseTranslator(book, ops, this::report);
        this.pendingPods = new PendingPods(book, cache, announcements, config.schedulerName(), this::report);
        this.restarts = new TrainingRestarts(book, cache, ops, this::report, this);
    }

    // ---------------------------------------------------------------- start, restart, stop

    /**
     * Starts watching: jobs on the lifecycle topic count as decided and their reported state is not reported
     * again; pods already bound are adopted, so their ends are reported and nothing binds them twice.
     */
    @Override
    public void resume(LifecycleHistoryReader.History history, JobEvents events) {
        synchronized (this) {
            this.events = events;
            book.decided.addAll(history.seenJobIds());
            book.ended.addAll(history.endedJobIds());
            book.startedBeforeRestart.putAll(history.stillRunning());
            // A job whose last stint was preempted and which has not ended waits for its next attempt.
            history.highestAttempts().forEach((jobId, attempt) -> {
                if (!history.endedJobIds().contains(jobId) && !history.stillRunning().containsKey(jobId)
                        && !GantryPods.isForeignJobId(jobId)) {
                    book.resumable.put(jobId, attempt + 1);
                }
            });
        }
        cache.start(n -> publisher.publishNode(n.getMetadata().getName()), this::onPod);
        reportJobsWhosePodsVanished();
        publisher.start(config.metricsInterval());
        LOG.infof("scheduler '%s' resumed: %d node(s), %d pod(s) of Gantry jobs, %d job(s) on the lifecycle topic",
                config.schedulerName(), cache.nodeCount(), cache.countGantryPods(), history.seenJobIds().size());
    }

    /** Jobs the topic says are running whose pods were all deleted while the dispatcher was down. */
    private synchronized void reportJobsWhosePodsVanished() {
        for (JobStarted s : book.startedBeforeRestart.values()) {
            if (!book.tracked.containsKey(s.jobId()) && !book.ended.contains(s.jobId())
                    && cache.podsOf(s.jobId()).isEmpty()) {
                book.ended.add(s.jobId());
                report(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), s.jobId(), s.user(),
                        s.nodes(), s.perTask(), "cancelled: its pods were deleted while pod-dispatcher was down", false),
                        "cancelled");
            }
        }
    }

    @Override
    public void close() {
        publisher.close();
        cache.close();
    }

    // ---------------------------------------------------------------- submissions

    @Override
    public void submitted(JobSubmitted job) {
        if (GantryPods.isForeignJobId(job.jobId())) {
            return; // a job made of pods from the cluster, announced by this dispatcher: its pods exist
        }
        GantryPods.JobSpec spec = new GantryPods.JobSpec(job.jobId(), job.user(), job.tasks(), job.perTask(),
                job.model(), job.batchSize(), job.epochs(), job.durationS(), job.training());
        synchronized (this) {
            if (book.decided.contains(job.jobId()) || book.ended.contains(job.jobId())
                    || !cache.podsOf(job.jobId()).isEmpty()) {
                return;
            }
            book.submittedSpecs.put(job.jobId(), spec);
            if (book.submittedSpecs.size() > 100_000) {
                book.submittedSpecs.remove(book.submittedSpecs.keySet().iterator().next());
            }
        }
        if (job.training() != null) {
            // A training job's pods are made at its decision: they carry the tuner's requests and hyper-parameters
            // (JobTuned, via the decision and the tuned specs), which the submission does not have yet.
            return;
        }
        ops.createPods(spec, 1);
    }

    /**
     * Where the tuned training spec of a decided job comes from (the {@code JobTuned} the scheduler queued it by, read
     * by {@code TunedSpecReader}, which may wait a bounded time for it); null for a trace job. Without it, a training
     * job runs the spec it was submitted with.
     */
    public void useTunedSpecs(Function<SchedulingDecision, TrainingSpec> lookup) {
        binder.useTunedSpecs(lookup);
    }

    // ---------------------------------------------------------------- decisions

    @Override
    public synchronized BindOutcome bind(SchedulingDecision d) {
        return binder.bind(d);
    }

    @Override
    public boolean startsOnBind() {
        return false;
    }

    /**
     * Stops the victim's stint before the decision that needs its room is bound: its pods are deleted, and this waits
     * (at most two minutes, their termination grace period included) until they are gone, since the kubelet would
     * refuse the new pods while they terminate. The pod informer then announces it {@code JobPreempted}, and its next
     * attempt gets new pods. A stint whose decision has not come yet is announced preempted after 0 s and its
     * decision ignored when it comes. Jobs of foreign pods are never stopped (they are submitted as not preemptible,
     * so the scheduler does not offer them), nor jobs that ended.
     */
    @Override
    public synchronized void preempt(Preemption victim, SchedulingDecision forDecision, JobEvents events) {
        preemptor.preempt(victim, forDecision);
    }

    /**
     * A running training job re-tuned ({@code JobTuned} update, newest revision): when its batch size changed, its pods
     * are replaced by pods of the next revision with the new spec, on the same checkpoint claim and nodes
     * ({@link TrainingRestarts}); nothing is bound by a decision again or announced.
     */
    public synchronized void retune(String jobId, TrainingSpec spec) {
        restarts.retune(jobId, spec);
    }

    @Override
    public void run(SchedulingDecision decision, JobEvents events) {
        // Nothing to start: the kubelet runs bound pods, and the pod informer reports what they do.
    }

    @Override
    public synchronized int runningJobs() {
        return (int) book.tracked.values().stream().filter(t -> !t.ended).count();
    }

    // ---------------------------------------------------------------- pods

    private void onPod(Pod pod, boolean deleted) {
        if (!GantryPods.isGantrys(pod, config.schedulerName())) {
            if (GantryPods.isBound(pod)) {
                publisher.publishNodeAsync(pod.getSpec().getNodeName());
            }
            return;
        }
        String jobId = GantryPods.jobIdOf(pod);
        synchronized (this) {
            if (events == null) {
                return;
            }
            if (deleted) {
                notifyAll(); // a preemption may be waiting for this pod to be gone
            }
            TrackedJob job = book.tracked.get(jobId);
            Integer resumes = book.resumable.get(jobId);
            // A pod of an earlier start, still terminating: that start has ended already.
            boolean ofAnotherStart = job != null ? GantryPods.attemptOf(pod) != job.attempt
                    || TrainingPods.revisionOf(pod) < job.revision
                    : resumes != null && GantryPods.attemptOf(pod) < resumes;
            if (job != null && job.restarting) {
                return; // a re-tune replaces its pods: their deletion is no end of the job
            }
            if (ofAnotherStart) {
                job = null;
            } else if (job == null && GantryPods.isBound(pod) && !book.ended.contains(jobId) && !deleted
                    && pod.getMetadata().getDeletionTimestamp() == null) {
                // Bound in an earlier run of the dispatcher (or, after a restart, its binding arrives now).
                job = TrackedJob.adopted(jobId, pod, cache.podsOf(jobId, GantryPods.attemptOf(pod)),
                        book.startedBeforeRestart.get(jobId));
                book.decided.add(jobId);
                book.tracked.put(jobId, job);
                LOG.infof("adopted job %s: its pods were bound before this run of pod-dispatcher", jobId);
            }
            if (job != null) {
                job.see(pod, deleted);
                translator.evaluate(job);
            } else if (!GantryPods.isBound(pod) && !ofAnotherStart) {
                pendingPods.pending(jobId, pod, deleted);
            }
        }
        if (GantryPods.isBound(pod)) {
            publisher.publishNodeAsync(pod.getSpec().getNodeName());
        }
    }

    private void report(LifecycleEvent event, String failureCause) {
        events.report(event, failureCause);
    }
}
