package io.gantry.dispatcher.kubernetes;

import static io.gantry.dispatcher.kubernetes.NodeRoom.allocatable;
import static io.gantry.dispatcher.kubernetes.NodeRoom.taints;
import static io.gantry.dispatcher.kubernetes.NodeRoom.unschedulableBecause;

import io.fabric8.kubernetes.api.model.Node;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.NodeMetrics;
import io.gantry.events.ResourceAmounts;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Publishes each node as {@link NodeMetrics} (source {@code kubernetes}): allocatable resources, what pods request
 * there, and whether pods may be placed on it; on a timer and whenever a pod on it changes.
 */
final class NodeMetricsPublisher {

    private static final Logger LOG = Logger.getLogger(KubernetesCluster.class);

    private final PodCache cache;
    private final PlacementCheck placement;
    private final ClusterAnnouncements announcements;
    /** The lock that guards the job book (the cluster's). */
    private final Object lock;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubernetes-node-metrics");
        t.setDaemon(true);
        return t;
    });

    NodeMetricsPublisher(PodCache cache, PlacementCheck placement, ClusterAnnouncements announcements, Object lock) {
        this.cache = cache;
        this.placement = placement;
        this.announcements = announcements;
        this.lock = lock;
    }

    void start(Duration interval) {
        long period = Math.max(1, interval.toMillis());
        ticker.scheduleAtFixedRate(this::publishAllNodes, 0, period, TimeUnit.MILLISECONDS);
    }

    void close() {
        ticker.shutdownNow();
    }

    private void publishAllNodes() {
        try {
            cache.nodeNames().forEach(this::publishNode);
        } catch (RuntimeException e) {
            LOG.warnf("could not publish node metrics: %s", e.toString());
        }
    }

    void publishNodeAsync(String node) {
        if (!ticker.isShutdown()) {
            ticker.execute(() -> publishNode(node));
        }
    }

    void publishNode(String name) {
        if (!cache.watchesNodes()) {
            return;
        }
        Node node = cache.node(name);
        Instant now = Instant.now();
        if (node == null) {
            announcements.nodeMetrics(new NodeMetrics(Events.newId(), GantryEvent.SCHEMA_VERSION, now, name,
                    new ResourceAmounts(0, 0, 0), null, null, null, null, 0, false, false, KubernetesCluster.SOURCE));
            return;
        }
        ResourceAmounts allocated;
        int running;
        synchronized (lock) {
            allocated = placement.allocatedOn(name);
            running = cache.podsOn(name).size();
        }
        announcements.nodeMetrics(new NodeMetrics(Events.newId(), GantryEvent.SCHEMA_VERSION, now, name,
                allocatable(node), allocated, null, null, null, running, unschedulableBecause(node) == null
                && taints(node).stream().noneMatch(NodeRoom::blocks), false, KubernetesCluster.SOURCE));
    }
}
