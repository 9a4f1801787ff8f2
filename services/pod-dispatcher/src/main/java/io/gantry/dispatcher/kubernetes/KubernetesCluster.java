package io.gantry.dispatcher.kubernetes;

import static io.gantry.dispatcher.kubernetes.Informers.await;
import static io.gantry.dispatcher.kubernetes.Informers.bounded;
import static io.gantry.dispatcher.kubernetes.Informers.handler;
import static io.gantry.dispatcher.kubernetes.NodeRoom.allocatable;
import static io.gantry.dispatcher.kubernetes.NodeRoom.blocks;
import static io.gantry.dispatcher.kubernetes.NodeRoom.describe;
import static io.gantry.dispatcher.kubernetes.NodeRoom.minus;
import static io.gantry.dispatcher.kubernetes.NodeRoom.plus;
import static io.gantry.dispatcher.kubernetes.NodeRoom.taints;
import static io.gantry.dispatcher.kubernetes.NodeRoom.tolerated;
import static io.gantry.dispatcher.kubernetes.NodeRoom.unschedulableBecause;
import static io.gantry.dispatcher.kubernetes.PodStates.describeBinding;
import static io.gantry.dispatcher.kubernetes.PodStates.disruptionOf;
import static io.gantry.dispatcher.kubernetes.PodStates.failureOf;
import static io.gantry.dispatcher.kubernetes.PodStates.key;
import static io.gantry.dispatcher.kubernetes.PodStates.phase;
import static io.gantry.dispatcher.kubernetes.PodStates.runtimeSeconds;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.dispatcher.cluster.SubmissionTaker;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TuningOptions;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Gantry as the Kubernetes scheduler {@code gantry} (DESIGN §3). Informers on nodes and pods keep the API server's
 * state in memory; that state, not this object, is the truth a restart resumes from.
 *
 * <ul>
 *   <li>Nodes: allocatable {@code cpu}, {@code memory}, {@code nvidia.com/gpu} and what pods request on them are
 *       published as {@link NodeMetrics} (source {@code kubernetes}); a cordoned, not-ready or tainted node is
 *       published unschedulable and is refused by {@link #bind}.</li>
 *   <li>Submitted jobs become unbound pods with {@code schedulerName: gantry} ({@link #submitted}); pods others create
 *       with that scheduler name become {@link JobSubmitted} events (see {@link GantryPods} for job ids).</li>
 *   <li>A decision is applied with the Binding subresource, one POST per pod (a real API server refuses a
 *       {@code nodeName} update). Every check is made before the first POST, so a gang is bound whole or not at
 *       all; if a POST still fails midway, the pods already bound are deleted, since Kubernetes cannot unbind.</li>
 *   <li>Pod phases become lifecycle events: all tasks running → started, all succeeded → completed, a task failed
 *       → failed with its reason ({@code OOMKilled} marked), a task deleted → preempted when Kubernetes marked it a
 *       disruption target (the job goes back to the queue, and its next attempt gets new pods; a job of foreign pods
 *       fails instead, since their owner decides what replaces them), else failed as cancelled.</li>
 *   <li>A decision's preemptions are carried out first ({@link #preempt}): the victim's pods are deleted and gone
 *       before the decision is bound. A job starts again as its next attempt on new pods ({@code <pod>-a<k>});
 *       binding is once per attempt.</li>
 * </ul>
 */
public final class KubernetesCluster implements ClusterBackend, SubmissionTaker, AutoCloseable {

    public static final String SOURCE = "kubernetes";
    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);
    private static final String BY_JOB = "gantry-job";
    private static final String BY_NODE = "node";
    private static final Duration API_TIMEOUT = Duration.ofSeconds(30);
    /** How long a preemption waits for the victim's pods to go (Kubernetes' default grace period is 30 s). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(120);

    private final KubernetesClient client;
    private final DispatcherConfig.Kubernetes config;
    private final ClusterAnnouncements announcements;
    private final Set<String> decided = bounded();
    private final Set<String> ended = bounded();
    /** Jobs whose pods were all deleted before a decision came: a decision for them binds nothing. */
    private final Set<String> cancelledBeforeBinding = bounded();
    private final Set<String> foreignSubmitted = bounded();
    private final Map<String, JobStarted> startedBeforeRestart = new HashMap<>();
    private final Map<String, GantryPods.JobSpec> submittedSpecs = new LinkedHashMap<>();
    /** Tuned training specs by job id (see {@link #useTunedSpecs}); none by default. */
    private volatile Function<SchedulingDecision, TrainingSpec> tunedSpecs = decision -> null;
    /**
     * Jobs Kubernetes evicted that Gantry can start again, with the attempt that may bind next: their pods are made
     * anew for it (only jobs Gantry made pods for; a foreign pod's owner decides what replaces it).
     */
    private final Map<String, Integer> resumable = new HashMap<>();
    private final Map<String, TrackedJob> tracked = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubernetes-node-metrics");
        t.setDaemon(true);
        return t;
    });
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private JobEvents events;

    public KubernetesCluster(KubernetesClient client, DispatcherConfig.Kubernetes config,
                             ClusterAnnouncements announcements) {
        this.client = client;
        this.config = config;
        this.announcements = announcements;
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
            decided.addAll(history.seenJobIds());
            ended.addAll(history.endedJobIds());
            startedBeforeRestart.putAll(history.stillRunning());
            // A job whose last stint was preempted and which has not ended waits for its next attempt.
            history.highestAttempts().forEach((jobId, attempt) -> {
                if (!history.endedJobIds().contains(jobId) && !history.stillRunning().containsKey(jobId)
                        && !GantryPods.isForeignJobId(jobId)) {
                    resumable.put(jobId, attempt + 1);
                }
            });
        }
        nodes = client.nodes().runnableInformer(0);
        nodes.addEventHandler(handler(n -> publishNode(n.getMetadata().getName())));
        pods = client.pods().inAnyNamespace().runnableInformer(0);
        pods.addIndexers(Map.of(
                BY_JOB, p -> GantryPods.isGantrys(p, config.schedulerName()) ? List.of(GantryPods.jobIdOf(p)) : List.of(),
                BY_NODE, p -> GantryPods.isBound(p) && !GantryPods.isTerminal(p) ? List.of(p.getSpec().getNodeName())
                        : List.of()));
        pods.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                onPod(pod, false);
            }

            @Override
            public void onUpdate(Pod before, Pod pod) {
                onPod(pod, false);
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                onPod(pod, true);
            }
        });
        await(nodes.start().toCompletableFuture(), "nodes");
        await(pods.start().toCompletableFuture(), "pods");
        reportJobsWhosePodsVanished();
        long period = Math.max(1, config.metricsInterval().toMillis());
        ticker.scheduleAtFixedRate(this::publishAllNodes, 0, period, TimeUnit.MILLISECONDS);
        LOG.infof("scheduler '%s' resumed: %d node(s), %d pod(s) of Gantry jobs, %d job(s) on the lifecycle topic",
                config.schedulerName(), nodes.getStore().list().size(), countGantryPods(), history.seenJobIds().size());
    }

    /** Jobs the topic says are running whose pods were all deleted while the dispatcher was down. */
    private synchronized void reportJobsWhosePodsVanished() {
        for (JobStarted s : startedBeforeRestart.values()) {
            if (!tracked.containsKey(s.jobId()) && !ended.contains(s.jobId()) && podsOf(s.jobId()).isEmpty()) {
                ended.add(s.jobId());
                report(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), s.jobId(), s.user(),
                        s.nodes(), s.perTask(), "cancelled: its pods were deleted while pod-dispatcher was down", false),
                        "cancelled");
            }
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        if (pods != null) {
            pods.close();
        }
        if (nodes != null) {
            nodes.close();
        }
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
            if (decided.contains(job.jobId()) || ended.contains(job.jobId()) || !podsOf(job.jobId()).isEmpty()) {
                return;
            }
            submittedSpecs.put(job.jobId(), spec);
            if (submittedSpecs.size() > 100_000) {
                submittedSpecs.remove(submittedSpecs.keySet().iterator().next());
            }
        }
        if (job.training() != null) {
            // A training job's pods are made at its decision: they carry the tuner's requests and hyper-parameters
            // (JobTuned, via the decision and the tuned specs), which the submission does not have yet.
            return;
        }
        createPods(spec, 1);
    }

    /** Creates the pods of the job's {@code attempt}-th start; a pod that exists already (a redelivery) is taken as it is. */
    private List<Pod> createPods(GantryPods.JobSpec spec, int attempt) {
        List<Pod> created = new ArrayList<>();
        for (int task = 0; task < spec.tasks(); task++) {
            Pod pod = spec.training() != null ? TrainingPods.build(spec, task, attempt, config)
                    : GantryPods.build(spec, task, attempt, config);
            try {
                Pod made = client.pods().inNamespace(config.jobNamespace()).resource(pod).create();
                created.add(made);
                if (spec.training() != null) {
                    createSpecConfigMap(spec, made);
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                Pod existing = client.pods().inNamespace(config.jobNamespace()).withName(pod.getMetadata().getName()).get();
                if (existing != null) {
                    created.add(existing);
                }
            }
        }
        LOG.infof("created %d pod(s) for job %s in namespace %s", created.size(), spec.jobId(), config.jobNamespace());
        return created;
    }

    /** The training spec's ConfigMap of a runner pod just created; one left by an earlier try is kept. */
    private void createSpecConfigMap(GantryPods.JobSpec spec, Pod pod) {
        try {
            client.configMaps().inNamespace(config.jobNamespace()).resource(TrainingPods.configMap(spec.training(), pod))
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    /**
     * Where the tuned training spec of a decided job comes from (the {@code JobTuned} the scheduler queued it by, read
     * by {@code TunedSpecReader}, which may wait a bounded time for it); null for a trace job. Without it, a training
     * job runs the spec it was submitted with.
     */
    public void useTunedSpecs(Function<SchedulingDecision, TrainingSpec> lookup) {
        this.tunedSpecs = lookup;
    }

    // ---------------------------------------------------------------- decisions

    @Override
    public synchronized BindOutcome bind(SchedulingDecision d) {
        String jobId = d.jobId();
        if (cancelledBeforeBinding.contains(jobId)) {
            decided.add(jobId);
            return new BindOutcome.NothingToBind("its pods were deleted before it was scheduled; nothing bound");
        }
        Integer resumes = resumable.get(jobId);
        boolean resuming = resumes != null && d.attempt() >= resumes;
        if (!resuming && (decided.contains(jobId) || ended.contains(jobId))) {
            return new BindOutcome.AlreadyDecided(jobId);
        }
        int attempt = d.attempt();
        List<Pod> jobPods = podsOf(jobId, attempt);
        if (jobPods.size() != d.nodes().size() && !GantryPods.isForeignJobId(jobId)) {
            // The informer may not have seen pods created a moment ago: ask the API server.
            jobPods = client.pods().inNamespace(config.jobNamespace()).withLabel(GantryPods.JOB_LABEL,
                    GantryPods.labelValue(jobId)).list().getItems().stream()
                    .filter(p -> GantryPods.isGantrys(p, config.schedulerName()) && jobId.equals(GantryPods.jobIdOf(p))
                            && GantryPods.attemptOf(p) == attempt)
                    .sorted(GantryPods.TASK_ORDER).toList();
        }
        if (jobPods.isEmpty()) {
            if (GantryPods.isForeignJobId(jobId)) {
                decided.add(jobId);
                return new BindOutcome.NothingToBind("no pod of it is left (deleted before it was scheduled); nothing bound");
            }
            // The decision overtook the submission (they travel on different topics), or the job resumes after an
            // eviction: make the pods now. A resumed job runs what is left of it (the decision's durationS).
            GantryPods.JobSpec submittedSpec = submittedSpecs.get(jobId);
            TrainingSpec tuned = tunedSpecs.apply(d);
            GantryPods.JobSpec spec = submittedSpec == null
                    ? new GantryPods.JobSpec(jobId, d.user(), d.nodes().size(), d.perTask(), null, null, null, d.durationS(),
                            tuned)
                    : attempt == 1 ? submittedSpec : submittedSpec.withDurationS(d.durationS());
            if (spec.training() != null || tuned != null) {
                // A training job runs with what was decided: the tuner's requests (the decision's) and its spec.
                spec = spec.asDecided(d.nodes().size(), d.perTask(), tuned);
            }
            jobPods = createPods(spec, attempt).stream().sorted(GantryPods.TASK_ORDER).toList();
        }
        for (Pod p : jobPods) {
            if (GantryPods.isBound(p)) {
                decided.add(jobId);
                return new BindOutcome.NothingToBind("pod " + key(p) + " is already bound to " + p.getSpec().getNodeName()
                        + "; nothing bound");
            }
            if (GantryPods.isTerminal(p) || p.getMetadata().getDeletionTimestamp() != null) {
                decided.add(jobId);
                return new BindOutcome.NothingToBind("pod " + key(p) + " is gone (" + phase(p) + "); nothing bound");
            }
        }
        if (jobPods.size() != d.nodes().size()) {
            decided.add(jobId);
            return new BindOutcome.Refused("gang_mismatch", "the job has " + jobPods.size() + " pod(s) but the decision "
                    + "places " + d.nodes().size() + " task(s)");
        }
        String refusal = whyNotPlaceable(jobPods, d.nodes());
        if (refusal != null) {
            decided.add(jobId);
            return new BindOutcome.Refused(refusal.substring(0, refusal.indexOf(':')),
                    refusal.substring(refusal.indexOf(':') + 1).trim());
        }
        decided.add(jobId);
        resumable.remove(jobId);
        TrackedJob job = TrackedJob.decided(d, jobPods);
        tracked.put(jobId, job);
        for (int i = 0; i < jobPods.size(); i++) {
            Pod pod = jobPods.get(i);
            String failure = postBinding(pod, d.nodes().get(i));
            if (failure != null) {
                tracked.remove(jobId);
                ended.add(jobId);
                List<Pod> alreadyBound = jobPods.subList(0, i);
                alreadyBound.forEach(this::deleteQuietly);
                return new BindOutcome.Refused("bind_failed", "binding " + key(pod) + " to " + d.nodes().get(i)
                        + " failed (" + failure + "); " + alreadyBound.size() + " pod(s) of the gang bound before it were "
                        + "deleted, since a pod cannot be unbound");
            }
            job.bound(pod.getMetadata().getName(), d.nodes().get(i));
        }
        LOG.infof("bound job %s: %s", jobId, describeBinding(jobPods, d.nodes()));
        d.nodes().forEach(this::publishNodeAsync);
        return new BindOutcome.Bound();
    }

    @Override
    public boolean startsOnBind() {
        return false;
    }

    /**
     * Stops the victim's stint before the decision that needs its room is bound: its pods are deleted, and this waits
     * (at most {@link #STOP_TIMEOUT}, their termination grace period included) until they are gone, since the
     * kubelet would refuse the new pods while they terminate. The pod informer then announces it
     * {@code JobPreempted}, and its next attempt gets new pods. A stint whose decision has not come yet is announced
     * preempted after 0 s and its decision ignored when it comes. Jobs of foreign pods are never stopped (they are
     * submitted as not preemptible, so the scheduler does not offer them), nor jobs that ended.
     */
    @Override
    public synchronized void preempt(Preemption victim, SchedulingDecision forDecision, JobEvents events) {
        String jobId = victim.jobId();
        int attempt = victim.attempt();
        if (GantryPods.isForeignJobId(jobId) || ended.contains(jobId)) {
            return;
        }
        TrackedJob job = tracked.get(jobId);
        Integer resumes = resumable.get(jobId);
        if (job == null && (attempt == 1 ? !decided.contains(jobId) : resumes != null && resumes == attempt)) {
            decided.add(jobId);
            resumable.put(jobId, attempt + 1);
            podsOf(jobId, attempt).forEach(this::deleteQuietly);
            GantryPods.JobSpec spec = submittedSpecs.get(jobId);
            report(new JobPreempted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId,
                    spec == null ? null : spec.user(), List.of(), spec == null ? null : spec.perTask(),
                    "preempted to make room for job " + forDecision.jobId() + " before its own decision arrived",
                    attempt, 0.0), null);
            return;
        }
        if (job == null || job.attempt != attempt) {
            return; // that stint has ended already
        }
        job.stoppedFor = forDecision.jobId();
        List<Pod> stopping = podsOf(jobId, attempt).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
        LOG.infof("preempting job %s (attempt %d) for job %s: deleting %d pod(s)", jobId, attempt, forDecision.jobId(),
                stopping.size());
        stopping.forEach(this::deleteQuietly);
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        while (!podsOf(jobId, attempt).isEmpty() && System.nanoTime() < deadline) {
            try {
                wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!podsOf(jobId, attempt).isEmpty()) {
            LOG.warnf("job %s's pods are still terminating after %s; job %s is bound into room they may still hold",
                    jobId, STOP_TIMEOUT, forDecision.jobId());
        }
    }

    @Override
    public void run(SchedulingDecision decision, JobEvents events) {
        // Nothing to start: the kubelet runs bound pods, and the pod informer reports what they do.
    }

    @Override
    public synchronized int runningJobs() {
        return (int) tracked.values().stream().filter(t -> !t.ended).count();
    }

    /**
     * Null when every task fits its node, else {@code "<cause>: <reason>"}. Nodes must exist, be schedulable and
     * ready, carry no taint the pod does not tolerate, and have room for all the tasks placed on them.
     */
    private String whyNotPlaceable(List<Pod> jobPods, List<String> targets) {
        Map<String, ResourceAmounts> wanted = new LinkedHashMap<>();
        for (int i = 0; i < jobPods.size(); i++) {
            String nodeName = targets.get(i);
            Node node = nodes.getStore().getByKey(nodeName);
            if (node == null) {
                return "unknown_node: node " + nodeName + " is not in the cluster";
            }
            String unschedulable = unschedulableBecause(node);
            if (unschedulable != null) {
                return "node_unschedulable: node " + nodeName + " " + unschedulable;
            }
            Pod pod = jobPods.get(i);
            for (Taint taint : taints(node)) {
                if (blocks(taint) && !tolerated(taint, pod)) {
                    return "node_tainted: node " + nodeName + " has taint " + taint.getKey() + "=" + taint.getValue() + ":"
                            + taint.getEffect() + " that pod " + key(pod) + " does not tolerate";
                }
            }
            wanted.merge(nodeName, GantryPods.requestsOf(pod), NodeRoom::plus);
        }
        for (Map.Entry<String, ResourceAmounts> e : wanted.entrySet()) {
            ResourceAmounts free = minus(allocatable(nodes.getStore().getByKey(e.getKey())), allocatedOn(e.getKey()));
            ResourceAmounts need = e.getValue();
            if (need.gpuMilli() > free.gpuMilli() || need.cpuMilli() > free.cpuMilli()
                    || need.memoryMib() > free.memoryMib()) {
                return "insufficient_resources: " + describe(need) + " do not fit on " + e.getKey() + ": free "
                        + describe(free);
            }
        }
        return null;
    }

    /** POSTs the pod's Binding; null when the API server took it, else what went wrong. */
    private String postBinding(Pod pod, String node) {
        Binding binding = new BindingBuilder()
                .withNewMetadata().withName(pod.getMetadata().getName()).withNamespace(pod.getMetadata().getNamespace())
                .withUid(pod.getMetadata().getUid()).endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName(node).endTarget()
                .build();
        String url = client.getMasterUrl().toString().replaceAll("/+$", "") + "/api/v1/namespaces/"
                + pod.getMetadata().getNamespace() + "/pods/" + pod.getMetadata().getName() + "/binding";
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(url)
                .post("application/json", Serialization.asJson(binding)).build();
        try {
            HttpResponse<String> response = http.sendAsync(request, String.class)
                    .get(API_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (response.code() / 100 == 2) {
                return null;
            }
            return "HTTP " + response.code() + ": " + response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (Exception e) {
            return e.toString();
        }
    }

    // ---------------------------------------------------------------- pods

    private void onPod(Pod pod, boolean deleted) {
        if (!GantryPods.isGantrys(pod, config.schedulerName())) {
            if (GantryPods.isBound(pod)) {
                publishNodeAsync(pod.getSpec().getNodeName());
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
            TrackedJob job = tracked.get(jobId);
            Integer resumes = resumable.get(jobId);
            // A pod of an earlier start, still terminating: that start has ended already.
            boolean ofAnotherStart = job != null ? GantryPods.attemptOf(pod) != job.attempt
                    : resumes != null && GantryPods.attemptOf(pod) < resumes;
            if (ofAnotherStart) {
                job = null;
            } else if (job == null && GantryPods.isBound(pod) && !ended.contains(jobId) && !deleted
                    && pod.getMetadata().getDeletionTimestamp() == null) {
                // Bound in an earlier run of the dispatcher (or, after a restart, its binding arrives now).
                job = TrackedJob.adopted(jobId, pod, podsOf(jobId, GantryPods.attemptOf(pod)),
                        startedBeforeRestart.get(jobId));
                decided.add(jobId);
                tracked.put(jobId, job);
                LOG.infof("adopted job %s: its pods were bound before this run of pod-dispatcher", jobId);
            }
            if (job != null) {
                job.see(pod, deleted);
                evaluate(job);
            } else if (!GantryPods.isBound(pod) && !ofAnotherStart) {
                pending(jobId, pod, deleted);
            }
        }
        if (GantryPods.isBound(pod)) {
            publishNodeAsync(pod.getSpec().getNodeName());
        }
    }

    /** A pod waiting for Gantry: a foreign job is submitted once all its pods exist; a deleted one is a cancellation. */
    private void pending(String jobId, Pod pod, boolean deleted) {
        if (decided.contains(jobId) || ended.contains(jobId)) {
            return;
        }
        List<Pod> waiting = podsOf(jobId).stream().filter(p -> !GantryPods.isBound(p) && !GantryPods.isTerminal(p)
                && p.getMetadata().getDeletionTimestamp() == null).toList();
        boolean known = GantryPods.createdByGantry(pod) || foreignSubmitted.contains(jobId);
        if (deleted || pod.getMetadata().getDeletionTimestamp() != null) {
            if (waiting.isEmpty() && known && cancelledBeforeBinding.add(jobId)) {
                ended.add(jobId);
                report(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId,
                        GantryPods.userOf(pod), List.of(), GantryPods.requestsOf(pod),
                        "cancelled: its pods were deleted before Gantry scheduled them", false), "cancelled");
            }
            return;
        }
        if (GantryPods.createdByGantry(pod) || foreignSubmitted.contains(jobId) || waiting.size() < GantryPods.tasksOf(pod)) {
            return;
        }
        foreignSubmitted.add(jobId);
        announcements.submitted(submissionOf(jobId, waiting));
        LOG.infof("pod(s) %s with schedulerName %s submitted as job %s", waiting.stream().map(PodStates::key)
                .collect(Collectors.joining(", ")), config.schedulerName(), jobId);
    }

    /**
     * The job of foreign pods. Its event id follows from the pods' uids, so announcing it again after a restart is a
     * redelivery to every consumer. Tuning is off and it is not preemptible: Gantry cannot change or re-create a pod
     * someone else made.
     */
    private static JobSubmitted submissionOf(String jobId, List<Pod> jobPods) {
        ResourceAmounts perTask = jobPods.stream().map(GantryPods::requestsOf).reduce(NodeRoom::max).orElseThrow();
        String uids = jobPods.stream().map(p -> Objects.toString(p.getMetadata().getUid(), key(p))).sorted()
                .collect(Collectors.joining(","));
        String eventId = UUID.nameUUIDFromBytes(("gantry-pod-submission:" + uids).getBytes(StandardCharsets.UTF_8)).toString();
        Pod first = jobPods.get(0);
        Instant created = jobPods.stream().map(p -> p.getMetadata().getCreationTimestamp()).filter(Objects::nonNull)
                .map(Instant::parse).min(Instant::compareTo).orElse(Instant.now());
        String jobName = jobId.substring(jobId.indexOf('/') + 1);
        return new JobSubmitted(eventId, GantryEvent.SCHEMA_VERSION, created, jobId, GantryPods.userOf(first), jobName,
                null, jobPods.size(), perTask, null, null, null, new TuningOptions(false, null, null, null), false);
    }

    /** Reports what the tracked job's pods now say, at most once per state. */
    private void evaluate(TrackedJob job) {
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
            String disruption = disruptionOf(deleted);
            if (job.stoppedFor != null || disruption != null && !GantryPods.isForeignJobId(job.jobId)) {
                // Back to the queue: its next start gets new pods (bind makes them for that attempt).
                String why = job.stoppedFor != null ? "preempted to make room for job " + job.stoppedFor
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
        } else if (seen.size() >= job.tasks && seen.stream().allMatch(p -> "Succeeded".equals(phase(p)))) {
            announceStarted(job, now);
            end(job, new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                    job.perTask, job.submittedAt, runtimeSeconds(seen, job.startedAt, now)), null);
        } else if (seen.size() >= job.tasks && seen.stream().allMatch(p -> "Running".equals(phase(p))
                || "Succeeded".equals(phase(p)))) {
            announceStarted(job, now);
        }
    }

    private void announceStarted(TrackedJob job, Instant now) {
        if (job.started) {
            return;
        }
        job.started = true;
        job.startedAt = now;
        report(new JobStarted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId, job.user, job.nodes(),
                job.perTask, job.submittedAt, job.policyVersion, job.attempt), null);
    }

    /** Reports the job's end; the gang's other pods are deleted, since a gang runs whole or not at all. */
    private void end(TrackedJob job, io.gantry.events.LifecycleEvent event, String failureCause) {
        job.ended = true;
        if (event instanceof JobPreempted) {
            resumable.put(job.jobId, job.attempt + 1);
        } else {
            ended.add(job.jobId);
        }
        tracked.remove(job.jobId);
        report(event, failureCause);
        if (!(event instanceof JobCompleted)) {
            job.lastSeen.values().stream()
                    .filter(p -> !job.deleted.contains(p.getMetadata().getName()) && !GantryPods.isTerminal(p))
                    .forEach(this::deleteQuietly);
        }
    }

    private void report(io.gantry.events.LifecycleEvent event, String failureCause) {
        events.report(event, failureCause);
    }

    private void deleteQuietly(Pod pod) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not delete pod %s: %s", key(pod), e.getMessage());
        }
    }

    private List<Pod> podsOf(String jobId) {
        if (pods == null) {
            return List.of();
        }
        return pods.getIndexer().byIndex(BY_JOB, jobId).stream().sorted(GantryPods.TASK_ORDER).toList();
    }

    /** The pods of the job's {@code attempt}-th start. */
    private List<Pod> podsOf(String jobId, int attempt) {
        return podsOf(jobId).stream().filter(p -> GantryPods.attemptOf(p) == attempt).toList();
    }

    private long countGantryPods() {
        return pods.getStore().list().stream().filter(p -> GantryPods.isGantrys(p, config.schedulerName())).count();
    }

    // ---------------------------------------------------------------- nodes

    private void publishAllNodes() {
        try {
            nodes.getStore().listKeys().forEach(this::publishNode);
        } catch (RuntimeException e) {
            LOG.warnf("could not publish node metrics: %s", e.toString());
        }
    }

    private void publishNodeAsync(String node) {
        if (!ticker.isShutdown()) {
            ticker.execute(() -> publishNode(node));
        }
    }

    private void publishNode(String name) {
        if (nodes == null) {
            return;
        }
        Node node = nodes.getStore().getByKey(name);
        Instant now = Instant.now();
        if (node == null) {
            announcements.nodeMetrics(new NodeMetrics(Events.newId(), GantryEvent.SCHEMA_VERSION, now, name,
                    new ResourceAmounts(0, 0, 0), null, null, null, null, 0, false, false, SOURCE));
            return;
        }
        ResourceAmounts allocated;
        int running;
        synchronized (this) {
            allocated = allocatedOn(name);
            running = pods.getIndexer().byIndex(BY_NODE, name).size();
        }
        announcements.nodeMetrics(new NodeMetrics(Events.newId(), GantryEvent.SCHEMA_VERSION, now, name,
                allocatable(node), allocated, null, null, null, running, unschedulableBecause(node) == null
                && taints(node).stream().noneMatch(NodeRoom::blocks), false, SOURCE));
    }

    /**
     * What pods request on {@code node}: every bound, unfinished pod the informer knows, plus Gantry's own pods just
     * bound there whose binding the informer has not shown yet (so two quick decisions cannot overfill a node).
     */
    private ResourceAmounts allocatedOn(String node) {
        ResourceAmounts sum = new ResourceAmounts(0, 0, 0);
        for (Pod p : pods.getIndexer().byIndex(BY_NODE, node)) {
            sum = plus(sum, GantryPods.requestsOf(p));
        }
        for (TrackedJob job : tracked.values()) {
            for (Map.Entry<String, String> e : job.boundTo.entrySet()) {
                Pod seen = job.lastSeen.get(e.getKey());
                if (node.equals(e.getValue()) && (seen == null || !GantryPods.isBound(seen))) {
                    sum = plus(sum, job.perTask);
                }
            }
        }
        return sum;
    }

}
