package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gantry.dispatcher.config.DispatcherConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * What Gantry writes to the API server about pods: it creates a job's pods (and a training pod's spec ConfigMap),
 * lists an attempt's pods, POSTs their Bindings and deletes them.
 */
final class PodOperations {

    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);
    private static final Duration API_TIMEOUT = Duration.ofSeconds(30);

    private final KubernetesClient client;
    private final DispatcherConfig.Kubernetes config;

    PodOperations(KubernetesClient client, DispatcherConfig.Kubernetes config) {
        this.client = client;
        this.config = config;
    }

    /** Creates the pods of the job's {@code attempt}-th start; a pod that exists already (a redelivery) is taken as it is. */
    List<Pod> createPods(GantryPods.JobSpec spec, int attempt) {
        return createPods(spec, attempt, 0);
    }

    /** The same for a training job's {@code revision}-th re-tune ({@link TrainingPods#build}). */
    List<Pod> createPods(GantryPods.JobSpec spec, int attempt, int revision) {
        List<Pod> created = new ArrayList<>();
        for (int task = 0; task < spec.tasks(); task++) {
            Pod pod = spec.training() != null ? TrainingPods.build(spec, task, attempt, revision, config)
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

    /** The pods of the job's {@code attempt}-th start as the API server lists them, in task order. */
    List<Pod> listPods(String jobId, int attempt) {
        return client.pods().inNamespace(config.jobNamespace()).withLabel(GantryPods.JOB_LABEL,
                GantryPods.labelValue(jobId)).list().getItems().stream()
                .filter(p -> GantryPods.isGantrys(p, config.schedulerName()) && jobId.equals(GantryPods.jobIdOf(p))
                        && GantryPods.attemptOf(p) == attempt)
                .sorted(GantryPods.TASK_ORDER).toList();
    }

    /** POSTs the pod's Binding; null when the API server took it, else what went wrong. */
    String postBinding(Pod pod, String node) {
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

    /** Writes the pod's GPU device annotations ({@link GantryPods#gpuDeviceAnnotations}); null, or why it failed. */
    String annotate(Pod pod, Map<String, String> annotations) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .edit(p -> new PodBuilder(p).editMetadata().addToAnnotations(annotations).endMetadata().build());
            return null;
        } catch (KubernetesClientException e) {
            return "HTTP " + e.getCode() + ": " + e.getMessage();
        }
    }

    void deleteQuietly(Pod pod) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not delete pod %s: %s", PodStates.key(pod), e.getMessage());
        }
    }
}
