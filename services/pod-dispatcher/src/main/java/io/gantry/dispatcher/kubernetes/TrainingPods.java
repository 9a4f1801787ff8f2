package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.events.EventCodec;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pod of a real training job (a {@code training} spec) on Kubernetes: the job runner's image
 * ({@code gantry.dispatcher.kubernetes.training.image}) instead of the trace jobs' stand-in, given
 * <ul>
 *   <li>the spec as {@code spec.json} in a ConfigMap named after the pod ({@code <pod>-spec}, owned by the pod, so it
 *       goes with it), mounted read-only at {@value #SPEC_DIR};</li>
 *   <li>its checkpoint directory on the PersistentVolumeClaim {@code training.checkpoint-claim}, sub-path
 *       {@code jobs/<job>}: the same for every attempt of the job, so a preempted job resumes from its last
 *       checkpoint;</li>
 *   <li>the datasets from the claim {@code training.datasets-claim}, read-only at {@value #DATASETS_DIR};</li>
 *   <li>the pod's {@code securityContext.fsGroup} {@code training.fs-group} (default 185, the runner image's user), so
 *       the non-root runner can write to the checkpoint claim; the volume's ownership is changed only when its root
 *       does not match ({@code fsGroupChangePolicy: OnRootMismatch}), not on every start of every attempt;</li>
 *   <li>the runner's options as arguments (the image's entrypoint runs the runner): {@code --spec}, {@code --job-id},
 *       {@code --user}, {@code --attempt}, {@code --checkpoint-dir}, {@code --bootstrap}, {@code --topic},
 *       {@code --datasets}; {@code OMP_NUM_THREADS=1};</li>
 *   <li>on a secured broker ({@code training.kafka-login-secret} set), the runner's own Kafka login from that Secret
 *       ({@link #kafkaLogin});</li>
 *   <li>requests and limits as any Gantry pod ({@link GantryPods#build}): from the decision, which carries the tuner's
 *       (right-sized) {@code JobTuned} requests; memory limited to the request, so a run that outgrows it is
 *       OOM-killed and its {@code JobFailed} says so. CPU is also limited, to the request rounded up to whole cores:
 *       the runner trains on one thread.</li>
 * </ul>
 * Labels, annotations, name and scheduler are {@link GantryPods}'s, so nothing else in the dispatcher tells a
 * training pod from a trace job's. A re-tune while the job runs replaces its pods by pods of the next revision
 * ({@link TrainingRestarts}): named {@code <pod>-r<revision>} with annotation {@value #REVISION_ANNOTATION} and their
 * own spec ConfigMap, on the same checkpoint sub-path, so the runner resumes from its checkpoint.
 */
public final class TrainingPods {

    public static final String SPEC_DIR = "/etc/gantry/training";
    public static final String SPEC_FILE = "spec.json";
    public static final String CHECKPOINT_DIR = "/checkpoints";
    static final String SPEC_VOLUME = "training-spec";
    static final String CHECKPOINT_VOLUME = "checkpoints";
    public static final String DATASETS_DIR = "/datasets";
    static final String DATASETS_VOLUME = "datasets";
    /** The {@code JobTuned} revision a training pod runs; absent on pods of revision 0. */
    public static final String REVISION_ANNOTATION = "gantry.io/revision";
    /** The key of the runners' login in {@code training.kafka-login-secret} (Strimzi's name in a KafkaUser's Secret). */
    static final String JAAS_CONFIG_KEY = "sasl.jaas.config";

    private TrainingPods() {
    }

    public static String configMapName(String podName) {
        return podName + "-spec";
    }

    /** The job's directory on the checkpoint claim: one per job, every attempt the same. */
    public static String checkpointSubPath(String jobId) {
        return "jobs/" + GantryPods.labelValue(jobId);
    }

    /** Task {@code task} of the {@code attempt}-th start of training job {@code job}. */
    public static Pod build(GantryPods.JobSpec job, int task, int attempt, DispatcherConfig.Kubernetes config) {
        return build(job, task, attempt, 0, config);
    }

    /** The same, running the job's {@code revision}-th re-tune (0: as queued). */
    public static Pod build(GantryPods.JobSpec job, int task, int attempt, int revision,
                            DispatcherConfig.Kubernetes config) {
        if (job.training() == null) {
            throw new IllegalArgumentException("job " + job.jobId() + " has no training spec");
        }
        DispatcherConfig.Training t = config.training();
        Pod base = GantryPods.build(job, task, attempt, config);
        if (revision > 0) {
            base = new PodBuilder(base).editMetadata().withName(base.getMetadata().getName() + "-r" + revision)
                    .addToAnnotations(REVISION_ANNOTATION, String.valueOf(revision)).endMetadata().build();
        }
        String podName = base.getMetadata().getName();
        List<String> args = new ArrayList<>(List.of("--spec", SPEC_DIR + "/" + SPEC_FILE, "--job-id", job.jobId(),
                "--user", job.user(), "--attempt", String.valueOf(attempt), "--checkpoint-dir", CHECKPOINT_DIR,
                "--bootstrap", t.kafkaBootstrap(), "--topic", Topics.JOBS_LIFECYCLE, "--datasets", DATASETS_DIR));
        List<EnvVar> env = new ArrayList<>(base.getSpec().getContainers().get(0).getEnv());
        env.add(new EnvVar("GANTRY_ATTEMPT", String.valueOf(attempt), null));
        // One thread: on shared cores PyTorch's default thread pool is many times slower (job-runner/README.md).
        env.add(new EnvVar("OMP_NUM_THREADS", "1", null));
        t.kafkaLoginSecret().ifPresent(secret -> env.addAll(kafkaLogin(secret)));
        long cores = Math.max(1, (job.perTask().cpuMilli() + 999) / 1000);
        PodBuilder pod = new PodBuilder(base)
                .editSpec()
                    .editFirstContainer()
                        .withImage(t.image())
                        .withCommand(t.command().orElse(null))
                        .withArgs(args)
                        .withEnv(env)
                        .editResources().addToLimits("cpu", new Quantity(String.valueOf(cores))).endResources()
                        .addNewVolumeMount().withName(SPEC_VOLUME).withMountPath(SPEC_DIR).withReadOnly(true)
                        .endVolumeMount()
                        .addNewVolumeMount().withName(CHECKPOINT_VOLUME).withMountPath(CHECKPOINT_DIR)
                            .withSubPath(checkpointSubPath(job.jobId())).endVolumeMount()
                        .addNewVolumeMount().withName(DATASETS_VOLUME).withMountPath(DATASETS_DIR).withReadOnly(true)
                        .endVolumeMount()
                    .endContainer()
                    .addNewVolume().withName(SPEC_VOLUME).withNewConfigMap().withName(configMapName(podName))
                    .endConfigMap().endVolume()
                    .addNewVolume().withName(CHECKPOINT_VOLUME).withNewPersistentVolumeClaim()
                        .withClaimName(t.checkpointClaim()).endPersistentVolumeClaim().endVolume()
                    .addNewVolume().withName(DATASETS_VOLUME).withNewPersistentVolumeClaim()
                        .withClaimName(t.datasetsClaim()).withReadOnly(true).endPersistentVolumeClaim().endVolume()
                .endSpec();
        if (t.fsGroup() >= 0) {
            pod.editSpec().editOrNewSecurityContext().withFsGroup(t.fsGroup()).withFsGroupChangePolicy("OnRootMismatch")
                    .endSecurityContext().endSpec();
        }
        return pod.build();
    }

    /** The re-tune a pod runs ({@value #REVISION_ANNOTATION}); 0 when absent or unreadable. */
    public static int revisionOf(Pod pod) {
        var annotations = pod.getMetadata().getAnnotations();
        try {
            return annotations == null ? 0 : Math.max(0, Integer.parseInt(annotations.getOrDefault(REVISION_ANNOTATION, "0")));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** True for a pod that runs the job runner (it mounts a training spec). */
    public static boolean isTraining(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getVolumes() != null
                && pod.getSpec().getVolumes().stream().anyMatch(v -> SPEC_VOLUME.equals(v.getName()));
    }

    /**
     * The runner's Kafka login on a secured broker, in the variables it reads ({@link KafkaClientAuth#fromEnvironment}):
     * the JAAS line from key {@code sasl.jaas.config} of {@code secret}, so the password is in no pod spec.
     */
    static List<EnvVar> kafkaLogin(String secret) {
        return List.of(new EnvVar(KafkaClientAuth.PROTOCOL_ENV, "SASL_PLAINTEXT", null),
                new EnvVar(KafkaClientAuth.MECHANISM_ENV, KafkaClientAuth.SCRAM_SHA_512, null),
                new EnvVarBuilder().withName(KafkaClientAuth.JAAS_CONFIG_ENV).withNewValueFrom().withNewSecretKeyRef()
                        .withName(secret).withKey(JAAS_CONFIG_KEY).endSecretKeyRef().endValueFrom().build());
    }

    /**
     * The ConfigMap holding the spec of {@code pod} (as created, with its uid): owned by the pod, so Kubernetes deletes
     * it with the pod. The kubelet waits for it before starting the container, so it may be created just after the pod.
     */
    public static ConfigMap configMap(TrainingSpec spec, Pod pod) {
        String json;
        try {
            json = EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(spec);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode the training spec of pod " + pod.getMetadata().getName(), e);
        }
        Map<String, String> labels = pod.getMetadata().getLabels();
        return new ConfigMapBuilder()
                .withNewMetadata()
                    .withName(configMapName(pod.getMetadata().getName()))
                    .withNamespace(pod.getMetadata().getNamespace())
                    .withLabels(labels)
                    .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod")
                            .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).build())
                .endMetadata()
                .addToData(SPEC_FILE, json)
                .build();
    }
}
