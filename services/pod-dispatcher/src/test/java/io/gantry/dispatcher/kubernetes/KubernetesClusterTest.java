package io.gantry.dispatcher.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.dispatcher.service.Dispatcher;
import io.gantry.dispatcher.service.DispatcherMetrics;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.ModelGraph;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher as the Kubernetes scheduler {@code gantry}, against fabric8's mock API server in CRUD mode. The
 * mock stores a Binding without setting the pod's {@code nodeName} (a real API server does), so each test reads
 * the binding POSTs the dispatcher made and applies their effect itself, as the kubelet-side of a cluster would.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String JOBS_NS = "gantry-jobs";

    KubernetesMockServer server;
    KubernetesClient client;

    private final List<LifecycleEvent> lifecycle = new CopyOnWriteArrayList<>();
    private final List<JobSubmitted> submissions = new CopyOnWriteArrayList<>();
    private final List<NodeMetrics> nodeMetrics = new CopyOnWriteArrayList<>();
    private final List<Binding> bindings = new CopyOnWriteArrayList<>();
    private final List<String> dispatcherLog = new CopyOnWriteArrayList<>();
    private final List<KubernetesCluster> started = new ArrayList<>();
    private Handler logCapture;

    @BeforeEach
    void captureDispatcherLog() {
        logCapture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                String msg = r.getParameters() == null || r.getParameters().length == 0 ? r.getMessage()
                        : String.format(r.getMessage(), r.getParameters());
                dispatcherLog.add(msg);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger.getLogger(Dispatcher.class.getName()).addHandler(logCapture);
    }

    @AfterEach
    void stop() {
        started.forEach(KubernetesCluster::close);
        java.util.logging.Logger.getLogger(Dispatcher.class.getName()).removeHandler(logCapture);
    }

    // ------------------------------------------------------------------ tests

    @Test
    void nodesWithGpusAppearAsCapacityAndCordonsAndTaintsAsUnschedulable() {
        create(node("gpu-a", 96, 384, 8));
        create(new NodeBuilder(node("gpu-cordoned", 32, 128, 4)).editSpec().withUnschedulable(true).endSpec().build());
        create(new NodeBuilder(node("gpu-tainted", 32, 128, 4)).editSpec().addNewTaint().withKey("maintenance")
                .withValue("true").withEffect("NoSchedule").endTaint().endSpec().build());
        start(emptyHistory());

        NodeMetrics a = awaitNodeMetrics("gpu-a");
        assertEquals(new ResourceAmounts(8000, 96_000, 384 * 1024), a.capacity());
        assertEquals(new ResourceAmounts(0, 0, 0), a.allocated());
        assertTrue(a.schedulable());
        assertEquals("kubernetes", a.source());
        assertFalse(awaitNodeMetrics("gpu-cordoned").schedulable());
        assertFalse(awaitNodeMetrics("gpu-tainted").schedulable());
    }

    @Test
    void aSubmittedJobBecomesAPodBoundToTheDecidedNodeAndItsPhasesBecomeLifecycleEvents() {
        create(node("node-1", 16, 64, 2));
        create(node("node-2", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);

        cluster.submitted(submission("mnist-7", 1, new ResourceAmounts(1000, 2000, 4096)));
        Pod pod = client.pods().inNamespace(JOBS_NS).withName("mnist-7-0").get();
        assertNotNull(pod, "the submitted job's pod is created");
        assertEquals("gantry", pod.getSpec().getSchedulerName());
        assertEquals("mnist-7", pod.getMetadata().getLabels().get("gantry.io/job"));
        assertEquals("alice", pod.getMetadata().getLabels().get("gantry.io/user"));
        assertEquals(new Quantity("1"), pod.getSpec().getContainers().get(0).getResources().getRequests().get("nvidia.com/gpu"));
        assertEquals(new Quantity("2000m"), pod.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
        assertEquals(null, pod.getSpec().getNodeName(), "created unbound: the scheduler decides where");

        expectBinding(JOBS_NS, "mnist-7-0");
        dispatcher.dispatch(decision("mnist-7", List.of("node-2"), new ResourceAmounts(1000, 2000, 4096)), null);
        Binding b = awaitBinding(JOBS_NS, "mnist-7-0");
        assertEquals("node-2", b.getTarget().getName());
        assertEquals("Node", b.getTarget().getKind());
        applyBinding(b);
        assertEquals("node-2", client.pods().inNamespace(JOBS_NS).withName("mnist-7-0").get().getSpec().getNodeName());

        setPhase(JOBS_NS, "mnist-7-0", p -> running(p));
        JobStarted s = assertInstanceOf(JobStarted.class, awaitLifecycle("mnist-7", 1).get(0));
        assertEquals(List.of("node-2"), s.nodes());
        assertEquals("v3", s.policyVersion());
        setPhase(JOBS_NS, "mnist-7-0", p -> terminated(p, "Succeeded", "Completed", 0));
        JobCompleted c = assertInstanceOf(JobCompleted.class, awaitLifecycle("mnist-7", 2).get(1));
        assertEquals(30.0, c.runtimeS(), 1e-9, "from the container's start to its finish");
    }

    /** Issue 19: the devices the scheduler chose go on the pod, in the style of Alibaba's GPU-share extender. */
    @Test
    void aDecisionWithGpuDevicesAnnotatesEachPodWithItsDevicesAndShareBeforeBindingIt() {
        ResourceAmounts half = new ResourceAmounts(500, 2000, 4096);
        ResourceAmounts two = new ResourceAmounts(2000, 2000, 4096);
        create(node("node-1", 16, 64, 8));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        cluster.submitted(submission("share-1", 1, half));
        cluster.submitted(submission("whole-2", 2, two));
        expectBinding(JOBS_NS, "share-1-0");
        expectBinding(JOBS_NS, "whole-2-0");
        expectBinding(JOBS_NS, "whole-2-1");
        dispatcher.dispatch(withDevices(decision("share-1", List.of("node-1"), half), List.of(List.of(3))), null);
        dispatcher.dispatch(withDevices(decision("whole-2", List.of("node-1", "node-1"), two),
                List.of(List.of(0, 1), List.of(4, 5))), null);
        awaitBinding(JOBS_NS, "whole-2-1");
        Map<String, String> share = client.pods().inNamespace(JOBS_NS).withName("share-1-0").get().getMetadata()
                .getAnnotations();
        assertEquals("3", share.get(GantryPods.GPU_DEVICES_ANNOTATION));
        assertEquals("500", share.get(GantryPods.GPU_MILLI_ANNOTATION), "its share of device 3");
        Map<String, String> second = client.pods().inNamespace(JOBS_NS).withName("whole-2-1").get().getMetadata()
                .getAnnotations();
        assertEquals("4,5", second.get(GantryPods.GPU_DEVICES_ANNOTATION), "task 1's devices");
        assertEquals("1000", second.get(GantryPods.GPU_MILLI_ANNOTATION), "whole GPUs");
        assertEquals("0,1", client.pods().inNamespace(JOBS_NS).withName("whole-2-0").get().getMetadata()
                .getAnnotations().get(GantryPods.GPU_DEVICES_ANNOTATION));
        submitBindAndRun(cluster, dispatcher, "plain", half);
        assertFalse(client.pods().inNamespace(JOBS_NS).withName("plain-0").get().getMetadata().getAnnotations()
                .containsKey(GantryPods.GPU_DEVICES_ANNOTATION), "no devices chosen, no annotation");
    }

    private static SchedulingDecision withDevices(SchedulingDecision d, List<List<Integer>> devices) {
        return new SchedulingDecision(d.eventId(), d.schemaVersion(), d.occurredAt(), d.jobId(), d.user(), d.nodes(),
                d.perTask(), d.durationS(), d.submittedAt(), d.policy(), d.policyVersion(), d.attempt(), d.preempts(),
                devices);
    }

    @Test
    void aTrainingJobRunsTheRunnerWithItsTunedSpecInAConfigMapCheckpointsOnTheClaimAndTheDecidedRequests() throws Exception {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        TrainingSpec submitted = new TrainingSpec(new ModelGraph(List.of(
                new ModelGraph.Layer("in", "Input", Map.of("shape", List.of(4))),
                new ModelGraph.Layer("out", "Output", Map.of("units", 3))), List.of(new ModelGraph.Edge("in", "out"))),
                "iris", "sgd", 0.05, 16, 40, 7L, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.9));
        TrainingSpec tuned = submitted.with(64, 0.2, 40);
        cluster.useTunedSpecs(d -> d.jobId().equals("train-1") ? tuned : null);

        cluster.submitted(new JobSubmitted(Events.newId(), 1, Instant.now(), "train-1", "alice", "iris-mlp", null, 1,
                new ResourceAmounts(0, 2000, 4096), null, null, null, null, true, submitted));
        assertEquals(0, client.pods().inNamespace(JOBS_NS).list().getItems().size(),
                "a training job's pod waits for its decision, which carries the tuned requests");

        // The tuner right-sized the job: the decision carries its JobTuned requests.
        expectBinding(JOBS_NS, "train-1-0");
        dispatcher.dispatch(decision("train-1", List.of("node-1"), new ResourceAmounts(0, 1440, 518)), null);
        assertEquals("node-1", awaitBinding(JOBS_NS, "train-1-0").getTarget().getName());
        Pod pod = client.pods().inNamespace(JOBS_NS).withName("train-1-0").get();
        var main = pod.getSpec().getContainers().get(0);
        assertEquals("localhost/gantry/job-runner:0.1.0-SNAPSHOT", main.getImage());
        assertTrue(main.getCommand() == null || main.getCommand().isEmpty(), "the image's entrypoint runs the runner");
        assertEquals(List.of("--spec", "/etc/gantry/training/spec.json", "--job-id", "train-1", "--user", "alice",
                "--attempt", "1", "--checkpoint-dir", "/checkpoints", "--bootstrap", "kafka.gantry.svc:9092",
                "--topic", "gantry.jobs.lifecycle", "--datasets", "/datasets"), main.getArgs());
        assertEquals(new Quantity("1440m"), main.getResources().getRequests().get("cpu"));
        assertEquals(new Quantity("518Mi"), main.getResources().getRequests().get("memory"));
        assertEquals(new Quantity("518Mi"), main.getResources().getLimits().get("memory"));
        assertEquals(new Quantity("2"), main.getResources().getLimits().get("cpu"));
        assertEquals("gantry", pod.getSpec().getSchedulerName());
        assertEquals("train-1", pod.getMetadata().getAnnotations().get("gantry.io/job-id"));
        var claim = pod.getSpec().getVolumes().stream().filter(v -> v.getPersistentVolumeClaim() != null
                && v.getPersistentVolumeClaim().getClaimName().equals("gantry-checkpoints")).findFirst().orElseThrow();
        var datasets = pod.getSpec().getVolumes().stream().filter(v -> v.getPersistentVolumeClaim() != null
                && v.getPersistentVolumeClaim().getClaimName().equals("gantry-datasets")).findFirst().orElseThrow();
        assertTrue(main.getVolumeMounts().stream().anyMatch(m -> m.getName().equals(datasets.getName())
                && m.getMountPath().equals("/datasets") && Boolean.TRUE.equals(m.getReadOnly())), main.toString());
        assertEquals("gantry-checkpoints", claim.getPersistentVolumeClaim().getClaimName());
        assertTrue(main.getVolumeMounts().stream().anyMatch(m -> m.getName().equals(claim.getName())
                && m.getMountPath().equals("/checkpoints") && m.getSubPath().equals("jobs/train-1")), main.toString());
        var specVolume = pod.getSpec().getVolumes().stream().filter(v -> v.getConfigMap() != null).findFirst()
                .orElseThrow();
        assertEquals("train-1-0-spec", specVolume.getConfigMap().getName());
        assertEquals(185L, pod.getSpec().getSecurityContext().getFsGroup(),
                "the checkpoint claim is writable by the runner's non-root user");

        var configMap = client.configMaps().inNamespace(JOBS_NS).withName("train-1-0-spec").get();
        assertNotNull(configMap, "the spec's ConfigMap");
        assertEquals(tuned, io.gantry.events.EventCodec.mapper().readValue(configMap.getData().get("spec.json"),
                TrainingSpec.class), "the runner trains the tuned spec");
        assertEquals("train-1-0", configMap.getMetadata().getOwnerReferences().get(0).getName(),
                "owned by its pod, so it goes with it");

        // A trace job keeps the named stand-in.
        cluster.submitted(submission("trace-1", 1, new ResourceAmounts(0, 1000, 1024)));
        var trace = client.pods().inNamespace(JOBS_NS).withName("trace-1-0").get().getSpec().getContainers().get(0);
        assertEquals("busybox:1.36", trace.getImage());
        assertEquals(List.of("sh", "-c", "sleep 1"), trace.getCommand());

        // Its lifecycle is any pod's.
        applyBinding(awaitBinding(JOBS_NS, "train-1-0"));
        setPhase(JOBS_NS, "train-1-0", p -> running(p));
        assertInstanceOf(JobStarted.class, awaitLifecycle("train-1", 1).get(0));
    }

    @Test
    void aReTunedTrainingJobGetsPodsOfTheNextRevisionOnTheSameClaimAndNodeAndStaysOneStint() throws Exception {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        TrainingSpec queued = IRIS;
        cluster.useTunedSpecs(d -> queued);
        expectBinding(JOBS_NS, "train-2-0");
        dispatcher.dispatch(decision("train-2", List.of("node-1"), new ResourceAmounts(0, 1000, 1024)), null);
        applyBinding(awaitBinding(JOBS_NS, "train-2-0"));
        setPhase(JOBS_NS, "train-2-0", this::running);
        assertInstanceOf(JobStarted.class, awaitLifecycle("train-2", 1).get(0));

        cluster.retune("train-2", queued.with(16, 0.02, 40));
        assertNotNull(client.pods().inNamespace(JOBS_NS).withName("train-2-0").get(), "same batch size: left running");

        TrainingSpec retuned = queued.with(64, 0.02, 40);
        expectBinding(JOBS_NS, "train-2-0-r1");
        cluster.retune("train-2", retuned);
        assertEquals(null, client.pods().inNamespace(JOBS_NS).withName("train-2-0").get(), "the old pod is deleted");
        Pod pod = client.pods().inNamespace(JOBS_NS).withName("train-2-0-r1").get();
        assertNotNull(pod, "the next revision's pod");
        assertEquals("1", pod.getMetadata().getAnnotations().get(TrainingPods.REVISION_ANNOTATION));
        var main = pod.getSpec().getContainers().get(0);
        assertTrue(main.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/checkpoints")
                && m.getSubPath().equals("jobs/train-2")), "the same checkpoint directory: it resumes there");
        var configMap = client.configMaps().inNamespace(JOBS_NS).withName("train-2-0-r1-spec").get();
        assertEquals(retuned, io.gantry.events.EventCodec.mapper().readValue(configMap.getData().get("spec.json"),
                TrainingSpec.class), "the runner trains the re-tuned spec");
        assertEquals("node-1", awaitBinding(JOBS_NS, "train-2-0-r1").getTarget().getName(), "on the node it ran on");
        applyBinding(awaitBinding(JOBS_NS, "train-2-0-r1"));

        setPhase(JOBS_NS, "train-2-0-r1", this::running);
        setPhase(JOBS_NS, "train-2-0-r1", p -> terminated(p, "Succeeded", "Completed", 0));
        List<LifecycleEvent> events = awaitLifecycle("train-2", 2);
        assertInstanceOf(JobCompleted.class, events.get(1), events.toString());
        assertEquals(2, events.size(), "one start, one end: the old pod's deletion ended nothing " + events);
        cluster.retune("train-2", retuned.with(128, 0.03, 40));
        assertEquals(null, client.pods().inNamespace(JOBS_NS).withName("train-2-0-r2").get(), "an ended job is left alone");
    }

    /**
     * A re-size (issue 21, live grow): the scheduler places a re-tuned training job's next attempt with its new GPU
     * request, and that decision stops the job's own running stint first. The old pod goes, the stop is announced as
     * a re-size, and the new attempt's pod asks for the new GPUs on the same checkpoint claim, so it resumes there.
     */
    @Test
    void aReSizedTrainingJobIsStoppedByItsOwnNextAttemptWhosePodAsksForTheNewGpus() {
        create(node("node-1", 16, 64, 4));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        TrainingSpec spec = IRIS;
        cluster.useTunedSpecs(d -> spec);
        ResourceAmounts oneGpu = new ResourceAmounts(1000, 1000, 1024);
        ResourceAmounts twoGpus = new ResourceAmounts(2000, 1000, 1024);
        expectBinding(JOBS_NS, "grow-0");
        dispatcher.dispatch(decision("grow", List.of("node-1"), oneGpu), null);
        applyBinding(awaitBinding(JOBS_NS, "grow-0"));
        setPhase(JOBS_NS, "grow-0", this::running);
        assertInstanceOf(JobStarted.class, awaitLifecycle("grow", 1).get(0));

        expectBinding(JOBS_NS, "grow-0-a2");
        dispatcher.dispatch(new SchedulingDecision(Events.newId(), 1, Instant.now(), "grow", "alice",
                List.of("node-1"), twoGpus, null, Instant.parse("2026-01-02T03:04:05Z"), "sac", "sac-0", 2,
                List.of(new io.gantry.events.Preemption("grow", 1))), null);
        assertEquals(null, client.pods().inNamespace(JOBS_NS).withName("grow-0").get(), "the old pod is gone first");
        JobPreempted stopped = assertInstanceOf(JobPreempted.class, awaitLifecycle("grow", 2).get(1));
        assertEquals(1, stopped.attempt());
        assertTrue(stopped.reason().startsWith("re-sized"), stopped.reason());
        Pod pod = client.pods().inNamespace(JOBS_NS).withName("grow-0-a2").get();
        assertNotNull(pod, "the next attempt's pod");
        var main = pod.getSpec().getContainers().get(0);
        assertEquals(new Quantity("2"), main.getResources().getRequests().get("nvidia.com/gpu"));
        assertTrue(main.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/checkpoints")
                && m.getSubPath().equals("jobs/grow")), "the same checkpoint directory: it resumes there");
        assertEquals("node-1", awaitBinding(JOBS_NS, "grow-0-a2").getTarget().getName());
        applyBinding(awaitBinding(JOBS_NS, "grow-0-a2"));
        setPhase(JOBS_NS, "grow-0-a2", this::running);
        JobStarted again = assertInstanceOf(JobStarted.class, awaitLifecycle("grow", 3).get(2));
        assertEquals(2, again.attempt());
        assertEquals(twoGpus, again.perTask());
    }

    @Test
    void aForeignPodWithSchedulerNameGantryIsSubmittedAndScheduled() {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);

        create(foreignPod("team-a", "resnet-train", null, 1, "1", "4", "8Gi"));
        JobSubmitted js = await(() -> submissions.stream().filter(x -> x.jobId().equals("team-a/resnet-train"))
                .findFirst(), "a JobSubmitted for the foreign pod");
        assertEquals(new ResourceAmounts(1000, 4000, 8192), js.perTask());
        assertEquals(1, js.tasks());
        assertEquals("bob", js.user());
        assertFalse(js.tuningOrDefault().enabled(), "Gantry cannot change a pod someone else made");
        assertFalse(js.preemptible(), "nor re-create one it stopped");
        cluster.submitted(js); // its own announcement, read back from the topic, creates nothing
        assertEquals(0, client.pods().inNamespace(JOBS_NS).list().getItems().size());

        expectBinding("team-a", "resnet-train");
        dispatcher.dispatch(decision("team-a/resnet-train", List.of("node-1"), js.perTask()), null);
        assertEquals("node-1", awaitBinding("team-a", "resnet-train").getTarget().getName());
    }

    @Test
    void aGangOfFourIsBoundAllOrNothing() {
        create(node("big", 64, 256, 8));
        create(node("small", 64, 256, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        for (String gang : List.of("gang-a", "gang-b")) {
            for (int i = 0; i < 4; i++) {
                expectBinding("team-b", gang + "-" + i);
                if (gang.equals("gang-a") && i < 3) {
                    create(foreignPod("team-b", gang + "-" + i, gang, 4, "2", "4", "8Gi"));
                    assertTrue(submissions.isEmpty() || submissions.stream().noneMatch(s -> s.jobId().equals("team-b/gang-a")),
                            "a gang is submitted only once all its pods exist");
                } else {
                    create(foreignPod("team-b", gang + "-" + i, gang, 4, "2", "4", "8Gi"));
                }
            }
        }
        await(() -> submissions.stream().filter(s -> s.jobId().equals("team-b/gang-b")).findFirst(), "gang-b submitted");
        assertEquals(4, submissions.stream().filter(s -> s.jobId().equals("team-b/gang-a")).findFirst().orElseThrow().tasks());
        ResourceAmounts perTask = new ResourceAmounts(2000, 4000, 8192);

        // 2 tasks of 2 GPUs on a node with 2: the whole gang is refused, none of its pods bound.
        dispatcher.dispatch(decision("team-b/gang-a", List.of("big", "big", "small", "small"), perTask), null);
        JobFailed refused = assertInstanceOf(JobFailed.class, awaitLifecycle("team-b/gang-a", 1).get(0));
        assertTrue(refused.reason().contains("do not fit on small"), refused.reason());
        dispatcher.dispatch(decision("team-b/gang-b", List.of("big", "big", "big", "big"), perTask), null);
        awaitBindingCount(4);
        assertTrue(bindings.stream().noneMatch(b -> b.getMetadata().getName().startsWith("gang-a")),
                "no pod of the refused gang is bound: " + bindings);
        assertEquals(Set.of("gang-b-0", "gang-b-1", "gang-b-2", "gang-b-3"),
                Set.copyOf(bindings.stream().map(b -> b.getMetadata().getName()).toList()));
    }

    @Test
    void failedAndOomKilledPodsBecomeFailuresWithTheirReason() {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        for (String job : List.of("crash-1", "oom-1")) {
            cluster.submitted(submission(job, 1, new ResourceAmounts(0, 1000, 1024)));
            expectBinding(JOBS_NS, job + "-0");
            dispatcher.dispatch(decision(job, List.of("node-1"), new ResourceAmounts(0, 1000, 1024)), null);
            applyBinding(awaitBinding(JOBS_NS, job + "-0"));
            setPhase(JOBS_NS, job + "-0", this::running);
            assertInstanceOf(JobStarted.class, awaitLifecycle(job, 1).get(0));
        }
        setPhase(JOBS_NS, "crash-1-0", p -> terminated(p, "Failed", "Error", 3));
        setPhase(JOBS_NS, "oom-1-0", p -> terminated(p, "Failed", "OOMKilled", 137));

        JobFailed crash = assertInstanceOf(JobFailed.class, awaitLifecycle("crash-1", 2).get(1));
        assertTrue(crash.reason().contains("Error (exit code 3)"), crash.reason());
        assertFalse(crash.oomKilled());
        JobFailed oom = assertInstanceOf(JobFailed.class, awaitLifecycle("oom-1", 2).get(1));
        assertTrue(oom.reason().contains("OOMKilled (exit code 137)"), oom.reason());
        assertTrue(oom.oomKilled());
    }

    /**
     * A running pod Kubernetes evicts (DisruptionTarget) sends its job back to the queue: JobPreempted for attempt 1,
     * and the scheduler's decision for attempt 2 gets new pods (the old one may still be terminating), bound once.
     */
    @Test
    void anEvictedJobResumesOnNewPodsAsItsNextAttempt() {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        ResourceAmounts perTask = new ResourceAmounts(1000, 1000, 1024);
        submitBindAndRun(cluster, dispatcher, "evict-1", perTask);
        setPhase(JOBS_NS, "evict-1-0", p -> new PodBuilder(p).editStatus().addNewCondition().withType("DisruptionTarget")
                .withStatus("True").withReason("TerminationByKubelet").withMessage("node drained").endCondition()
                .endStatus().build());
        client.pods().inNamespace(JOBS_NS).withName("evict-1-0").delete();
        JobPreempted evicted = assertInstanceOf(JobPreempted.class, awaitLifecycle("evict-1", 2).get(1));
        assertEquals(1, evicted.attempt());
        assertTrue(evicted.reason().contains("TerminationByKubelet"), evicted.reason());

        int postsBefore = bindingPosts();
        expectBinding(JOBS_NS, "evict-1-0-a2");
        SchedulingDecision again = new SchedulingDecision(Events.newId(), 1, Instant.now(), "evict-1", "alice",
                List.of("node-1"), perTask, 400.0, Instant.parse("2026-01-02T03:04:05Z"), "sac", "sac-0", 2, List.of());
        dispatcher.dispatch(again, null);
        applyBinding(awaitBinding(JOBS_NS, "evict-1-0-a2"));
        assertEquals("2", client.pods().inNamespace(JOBS_NS).withName("evict-1-0-a2").get().getMetadata()
                .getAnnotations().get(GantryPods.ATTEMPT_ANNOTATION));
        assertFalse(dispatcher.dispatch(again, null), "attempt 2 is bound once");
        assertFalse(dispatcher.dispatch(decision("evict-1", List.of("node-1"), perTask), null), "attempt 1 is over");
        assertEquals(postsBefore + 1, bindingPosts());
        setPhase(JOBS_NS, "evict-1-0-a2", this::running);
        assertEquals(2, assertInstanceOf(JobStarted.class, awaitLifecycle("evict-1", 3).get(2)).attempt());
        setPhase(JOBS_NS, "evict-1-0-a2", p -> terminated(p, "Succeeded", "Completed", 0));
        assertInstanceOf(JobCompleted.class, awaitLifecycle("evict-1", 4).get(3));
    }

    /**
     * A decision that preempts: the victim's pod is deleted and gone before the new job is bound into its room; the
     * victim is announced preempted (attempt 1) and resumes on new pods as attempt 2 once room frees again.
     */
    @Test
    void aPreemptionStopsTheVictimsPodsBeforeBindingIntoTheirRoomAndTheVictimResumes() {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        ResourceAmounts twoGpus = new ResourceAmounts(2000, 1000, 1024);
        submitBindAndRun(cluster, dispatcher, "victim", twoGpus);

        cluster.submitted(submission("urgent", 1, twoGpus));
        expectBinding(JOBS_NS, "urgent-0");
        SchedulingDecision urgent = new SchedulingDecision(Events.newId(), 1, Instant.now(), "urgent", "alice",
                List.of("node-1"), twoGpus, 60.0, Instant.parse("2026-01-02T03:04:05Z"), "sac", "sac-0", 1,
                List.of(new io.gantry.events.Preemption("victim", 1)));
        dispatcher.dispatch(urgent, null);
        assertEquals(null, client.pods().inNamespace(JOBS_NS).withName("victim-0").get(), "the victim's pod is gone");
        applyBinding(awaitBinding(JOBS_NS, "urgent-0"));
        JobPreempted stopped = assertInstanceOf(JobPreempted.class, awaitLifecycle("victim", 2).get(1));
        assertEquals(1, stopped.attempt());
        assertTrue(stopped.reason().contains("make room for job urgent"), stopped.reason());

        setPhase(JOBS_NS, "urgent-0", this::running);
        setPhase(JOBS_NS, "urgent-0", p -> terminated(p, "Succeeded", "Completed", 0));
        assertInstanceOf(JobCompleted.class, awaitLifecycle("urgent", 2).get(1));
        expectBinding(JOBS_NS, "victim-0-a2");
        dispatcher.dispatch(new SchedulingDecision(Events.newId(), 1, Instant.now(), "victim", "alice", List.of("node-1"),
                twoGpus, 300.0, Instant.parse("2026-01-02T03:04:05Z"), "sac", "sac-0", 2, List.of()), null);
        applyBinding(awaitBinding(JOBS_NS, "victim-0-a2"));
        setPhase(JOBS_NS, "victim-0-a2", this::running);
        assertEquals(2, assertInstanceOf(JobStarted.class, awaitLifecycle("victim", 3).get(2)).attempt());
    }

    @Test
    void aRestartInTheMiddleBindsNothingTwiceAndForgetsNothing() {
        create(node("node-1", 16, 64, 4));
        KubernetesCluster first = start(emptyHistory());
        Dispatcher before = dispatcher(first);
        first.submitted(submission("long-1", 2, new ResourceAmounts(1000, 1000, 1024)));
        expectBinding(JOBS_NS, "long-1-0");
        expectBinding(JOBS_NS, "long-1-1");
        SchedulingDecision d = decision("long-1", List.of("node-1", "node-1"), new ResourceAmounts(1000, 1000, 1024));
        before.dispatch(d, null);
        awaitBindingCount(2);
        bindings.forEach(this::applyBinding);
        first.close();

        // The decision's offset was not committed before the stop: it is delivered again to the new run.
        KubernetesCluster second = start(emptyHistory());
        Dispatcher after = dispatcher(second);
        assertFalse(after.dispatch(d, null));
        assertEquals(2, bindingPosts(), "nothing is bound twice");
        setPhase(JOBS_NS, "long-1-0", this::running);
        setPhase(JOBS_NS, "long-1-1", this::running);
        assertInstanceOf(JobStarted.class, awaitLifecycle("long-1", 1).get(0));
        setPhase(JOBS_NS, "long-1-0", p -> terminated(p, "Succeeded", "Completed", 0));
        setPhase(JOBS_NS, "long-1-1", p -> terminated(p, "Succeeded", "Completed", 0));
        assertInstanceOf(JobCompleted.class, awaitLifecycle("long-1", 2).get(1));
        assertEquals(2, bindingPosts());
    }

    @Test
    void aDecisionForADeletedPodChangesNothingAndSaysSo() {
        create(node("node-1", 16, 64, 2));
        KubernetesCluster cluster = start(emptyHistory());
        Dispatcher dispatcher = dispatcher(cluster);
        cluster.submitted(submission("gone-1", 1, new ResourceAmounts(0, 1000, 1024)));
        client.pods().inNamespace(JOBS_NS).withName("gone-1-0").delete();
        JobFailed cancelled = assertInstanceOf(JobFailed.class, awaitLifecycle("gone-1", 1).get(0));
        assertTrue(cancelled.reason().startsWith("cancelled"), cancelled.reason());

        boolean awaitsOutcome = dispatcher.dispatch(decision("gone-1", List.of("node-1"), new ResourceAmounts(0, 1000, 1024)), null);
        assertFalse(awaitsOutcome);
        assertEquals(0, bindingPosts(), "no binding for a pod that is gone");
        assertEquals(0, client.pods().inNamespace(JOBS_NS).list().getItems().size(), "and no pod made again");
        assertTrue(dispatcherLog.stream().anyMatch(l -> l.contains("gone-1") && l.contains("changes nothing")
                && l.contains("deleted")), dispatcherLog.toString());
        assertEquals(1, lifecycle.stream().filter(e -> e.jobId().equals("gone-1")).count());
    }

    // ------------------------------------------------------------------ wiring

    private KubernetesCluster start(LifecycleHistoryReader.History history) {
        KubernetesCluster cluster = new KubernetesCluster(client, config(), new ClusterAnnouncements() {
            @Override
            public void submitted(JobSubmitted job) {
                submissions.add(job);
            }

            @Override
            public void nodeMetrics(NodeMetrics metrics) {
                nodeMetrics.add(metrics);
            }
        });
        started.add(cluster);
        cluster.resume(history, (event, cause) -> lifecycle.add(event));
        return cluster;
    }

    /** The real dispatcher on this cluster; its announcements land in {@link #lifecycle}. */
    private Dispatcher dispatcher(KubernetesCluster cluster) {
        return new Dispatcher(cluster, (event, cause) -> lifecycle.add(event),
                new DispatcherMetrics(new SimpleMeterRegistry(), cluster));
    }

    private static LifecycleHistoryReader.History emptyHistory() {
        return new LifecycleHistoryReader.History.Builder().build();
    }

    private static DispatcherConfig.Kubernetes config() {
        return new DispatcherConfig.Kubernetes() {
            public String schedulerName() {
                return "gantry";
            }

            public String jobNamespace() {
                return JOBS_NS;
            }

            public String traceJobImage() {
                return "busybox:1.36";
            }

            public List<String> traceJobCommand() {
                return List.of("sh", "-c", "sleep 1");
            }

            public DispatcherConfig.Training training() {
                return new DispatcherConfig.Training() {
                    public String image() {
                        return "localhost/gantry/job-runner:0.1.0-SNAPSHOT";
                    }

                    public Optional<List<String>> command() {
                        return Optional.empty();
                    }

                    public String checkpointClaim() {
                        return "gantry-checkpoints";
                    }

                    public String kafkaBootstrap() {
                        return "kafka.gantry.svc:9092";
                    }

                    public Optional<String> kafkaLoginSecret() {
                        return Optional.empty();
                    }

                    public String datasetsClaim() {
                        return "gantry-datasets";
                    }

                    public long fsGroup() {
                        return 185;
                    }
                };
            }

            public Optional<String> jobServiceAccount() {
                return Optional.empty();
            }

            public Duration metricsInterval() {
                return Duration.ofHours(1);
            }
        };
    }

    // ------------------------------------------------------------------ objects

    /** A small real training job: an iris classifier with a target, batch 16. */
    private static final TrainingSpec IRIS = new TrainingSpec(new ModelGraph(List.of(
            new ModelGraph.Layer("in", "Input", Map.of("shape", List.of(4))),
            new ModelGraph.Layer("out", "Output", Map.of("units", 3))), List.of(new ModelGraph.Edge("in", "out"))),
            "iris", "adam", 0.01, 16, 40, 7L, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.9));

    private static Node node(String name, int cpus, int memoryGi, int gpus) {
        Map<String, Quantity> alloc = Map.of("cpu", new Quantity(String.valueOf(cpus)),
                "memory", new Quantity(memoryGi + "Gi"), "nvidia.com/gpu", new Quantity(String.valueOf(gpus)));
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec()
                .withNewStatus().withCapacity(alloc).withAllocatable(alloc)
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    private static Pod foreignPod(String ns, String name, String job, int tasks, String gpus, String cpu, String memory) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns)
                .addToLabels("gantry.io/user", "bob").addToAnnotations("gantry.io/tasks", String.valueOf(tasks))
                .endMetadata();
        if (job != null) {
            b.editMetadata().addToLabels("gantry.io/job", job).endMetadata();
        }
        return b.withNewSpec().withSchedulerName("gantry").addNewContainer().withName("train").withImage("pytorch/pytorch")
                .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory),
                        "nvidia.com/gpu", new Quantity(gpus)))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity(gpus))).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus().build();
    }

    /** A one-pod job submitted, decided onto node-1 (attempt 1), bound and running, its JobStarted seen. */
    private void submitBindAndRun(KubernetesCluster cluster, Dispatcher dispatcher, String jobId, ResourceAmounts perTask) {
        cluster.submitted(submission(jobId, 1, perTask));
        expectBinding(JOBS_NS, jobId + "-0");
        dispatcher.dispatch(decision(jobId, List.of("node-1"), perTask), null);
        applyBinding(awaitBinding(JOBS_NS, jobId + "-0"));
        setPhase(JOBS_NS, jobId + "-0", this::running);
        assertInstanceOf(JobStarted.class, awaitLifecycle(jobId, 1).get(0));
    }

    private static JobSubmitted submission(String jobId, int tasks, ResourceAmounts perTask) {
        return new JobSubmitted(Events.newId(), 1, Instant.now(), jobId, "alice", jobId, "mnist", tasks, perTask, 64, 2,
                600.0, null);
    }

    private static SchedulingDecision decision(String jobId, List<String> nodes, ResourceAmounts perTask) {
        return new SchedulingDecision(Events.newId(), 1, Instant.now(), jobId, "alice", nodes, perTask, 600.0,
                Instant.parse("2026-01-02T03:04:05Z"), "kube-default", "v3");
    }

    private Pod running(Pod p) {
        return new PodBuilder(p).editOrNewStatus().withPhase("Running").withContainerStatuses(new ContainerStatusBuilder()
                .withName("main").withNewState().withNewRunning().withStartedAt("2026-01-02T03:05:00Z").endRunning()
                .endState().build()).endStatus().build();
    }

    private Pod terminated(Pod p, String phase, String reason, int exitCode) {
        return new PodBuilder(p).editOrNewStatus().withPhase(phase).withContainerStatuses(new ContainerStatusBuilder()
                .withName("main").withNewState().withNewTerminated().withReason(reason).withExitCode(exitCode)
                .withStartedAt("2026-01-02T03:05:00Z").withFinishedAt("2026-01-02T03:05:30Z").endTerminated()
                .endState().build()).endStatus().build();
    }

    private void create(Node node) {
        client.nodes().resource(node).create();
    }

    private void create(Pod pod) {
        client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
    }

    private void setPhase(String ns, String name, UnaryOperator<Pod> change) {
        client.pods().inNamespace(ns).withName(name).edit(change);
    }

    // ------------------------------------------------------------------ bindings

    /** Answers the binding POST for a pod as an API server does (201); the request itself is read from the server's log. */
    private void expectBinding(String ns, String pod) {
        server.expect().post().withPath("/api/v1/namespaces/" + ns + "/pods/" + pod + "/binding")
                .andReturn(201, "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Success\"}").always();
    }

    /** What a real API server does with a Binding: sets the pod's nodeName. Done here, never in a reply callback. */
    private void applyBinding(Binding b) {
        client.pods().inNamespace(b.getMetadata().getNamespace()).withName(b.getMetadata().getName())
                .edit(p -> new PodBuilder(p).editSpec().withNodeName(b.getTarget().getName()).endSpec().build());
    }

    private int bindingPosts() {
        drainRequests();
        return bindings.size();
    }

    private void drainRequests() {
        try {
            RecordedRequest r;
            while ((r = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
                if ("POST".equals(r.getMethod()) && r.getPath().endsWith("/binding")) {
                    bindings.add(Serialization.unmarshal(r.getUtf8Body(), Binding.class));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Binding awaitBinding(String ns, String pod) {
        return await(() -> {
            drainRequests();
            return bindings.stream().filter(b -> b.getMetadata().getName().equals(pod)
                    && ns.equals(b.getMetadata().getNamespace())).findFirst();
        }, "a binding of " + ns + "/" + pod);
    }

    private void awaitBindingCount(int n) {
        awaitTrue(() -> bindingPosts() >= n, n + " binding(s)");
    }

    // ------------------------------------------------------------------ waiting

    private NodeMetrics awaitNodeMetrics(String node) {
        return await(() -> nodeMetrics.stream().filter(m -> m.node().equals(node)).reduce((a, b) -> b), "metrics of " + node);
    }

    private List<LifecycleEvent> awaitLifecycle(String jobId, int count) {
        awaitTrue(() -> lifecycle.stream().filter(e -> e.jobId().equals(jobId)).count() >= count,
                count + " lifecycle event(s) of " + jobId + "; have " + lifecycle);
        return lifecycle.stream().filter(e -> e.jobId().equals(jobId)).toList();
    }

    private static <T> T await(java.util.function.Supplier<Optional<T>> probe, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            sleep();
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
