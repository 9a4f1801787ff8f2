package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gantry.dispatcher.config.DispatcherConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The informers on nodes and pods: the API server's state in memory (the truth a restart resumes from), with the pods
 * indexed by Gantry job and by the node they are bound to.
 */
final class PodCache {

    private static final String BY_JOB = "gantry-job";
    private static final String BY_NODE = "node";
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);

    private final KubernetesClient client;
    private final DispatcherConfig.Kubernetes config;
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;

    PodCache(KubernetesClient client, DispatcherConfig.Kubernetes config) {
        this.client = client;
        this.config = config;
    }

    /** Lists and watches nodes and pods, calling {@code onPod(pod, deleted)} for every pod change; returns once synced. */
    void start(Consumer<Node> onNode, BiConsumer<Pod, Boolean> onPod) {
        nodes = client.nodes().runnableInformer(0);
        nodes.addEventHandler(handler(onNode));
        pods = client.pods().inAnyNamespace().runnableInformer(0);
        pods.addIndexers(Map.of(
                BY_JOB, p -> GantryPods.isGantrys(p, config.schedulerName()) ? List.of(GantryPods.jobIdOf(p)) : List.of(),
                BY_NODE, p -> GantryPods.isBound(p) && !GantryPods.isTerminal(p) ? List.of(p.getSpec().getNodeName())
                        : List.of()));
        pods.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                onPod.accept(pod, false);
            }

            @Override
            public void onUpdate(Pod before, Pod pod) {
                onPod.accept(pod, false);
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                onPod.accept(pod, true);
            }
        });
        await(nodes.start().toCompletableFuture(), "nodes");
        await(pods.start().toCompletableFuture(), "pods");
    }

    void close() {
        if (pods != null) {
            pods.close();
        }
        if (nodes != null) {
            nodes.close();
        }
    }

    boolean watchesNodes() {
        return nodes != null;
    }

    /** The node as the informer last saw it; null when it is not in the cluster. */
    Node node(String name) {
        return nodes.getStore().getByKey(name);
    }

    List<String> nodeNames() {
        return nodes.getStore().listKeys();
    }

    int nodeCount() {
        return nodes.getStore().list().size();
    }

    /** Every bound, unfinished pod on the node. */
    List<Pod> podsOn(String node) {
        return pods.getIndexer().byIndex(BY_NODE, node);
    }

    List<Pod> podsOf(String jobId) {
        if (pods == null) {
            return List.of();
        }
        return pods.getIndexer().byIndex(BY_JOB, jobId).stream().sorted(GantryPods.TASK_ORDER).toList();
    }

    /** The pods of the job's {@code attempt}-th start. */
    List<Pod> podsOf(String jobId, int attempt) {
        return podsOf(jobId).stream().filter(p -> GantryPods.attemptOf(p) == attempt).toList();
    }

    long countGantryPods() {
        return pods.getStore().list().stream().filter(p -> GantryPods.isGantrys(p, config.schedulerName())).count();
    }

    private static <T> ResourceEventHandler<T> handler(Consumer<T> onChange) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                onChange.accept(obj);
            }

            @Override
            public void onUpdate(T before, T obj) {
                onChange.accept(obj);
            }

            @Override
            public void onDelete(T obj, boolean finalStateUnknown) {
                onChange.accept(obj);
            }
        };
    }

    private static void await(CompletableFuture<?> started, String what) {
        try {
            started.get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("could not list and watch " + what + " on the API server: " + e, e);
        }
    }
}
