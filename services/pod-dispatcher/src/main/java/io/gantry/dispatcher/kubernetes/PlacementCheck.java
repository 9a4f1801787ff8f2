package io.gantry.dispatcher.kubernetes;

import static io.gantry.dispatcher.kubernetes.NodeRoom.allocatable;
import static io.gantry.dispatcher.kubernetes.NodeRoom.blocks;
import static io.gantry.dispatcher.kubernetes.NodeRoom.describe;
import static io.gantry.dispatcher.kubernetes.NodeRoom.minus;
import static io.gantry.dispatcher.kubernetes.NodeRoom.plus;
import static io.gantry.dispatcher.kubernetes.NodeRoom.taints;
import static io.gantry.dispatcher.kubernetes.NodeRoom.tolerated;
import static io.gantry.dispatcher.kubernetes.NodeRoom.unschedulableBecause;
import static io.gantry.dispatcher.kubernetes.PodStates.key;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.gantry.events.ResourceAmounts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Whether a decision's tasks fit the nodes it names, and what pods already hold on a node. Called under the lock. */
final class PlacementCheck {

    private final PodCache cache;
    private final JobBook book;

    PlacementCheck(PodCache cache, JobBook book) {
        this.cache = cache;
        this.book = book;
    }

    /**
     * Null when every task fits its node, else {@code "<cause>: <reason>"}. Nodes must exist, be schedulable and
     * ready, carry no taint the pod does not tolerate, and have room for all the tasks placed on them.
     */
    String whyNotPlaceable(List<Pod> jobPods, List<String> targets) {
        Map<String, ResourceAmounts> wanted = new LinkedHashMap<>();
        for (int i = 0; i < jobPods.size(); i++) {
            String nodeName = targets.get(i);
            Node node = cache.node(nodeName);
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
            ResourceAmounts free = minus(allocatable(cache.node(e.getKey())), allocatedOn(e.getKey()));
            ResourceAmounts need = e.getValue();
            if (need.gpuMilli() > free.gpuMilli() || need.cpuMilli() > free.cpuMilli()
                    || need.memoryMib() > free.memoryMib()) {
                return "insufficient_resources: " + describe(need) + " do not fit on " + e.getKey() + ": free "
                        + describe(free);
            }
        }
        return null;
    }

    /**
     * What pods request on {@code node}: every bound, unfinished pod the informer knows, plus Gantry's own pods just
     * bound there whose binding the informer has not shown yet (so two quick decisions cannot overfill a node).
     */
    ResourceAmounts allocatedOn(String node) {
        ResourceAmounts sum = new ResourceAmounts(0, 0, 0);
        for (Pod p : cache.podsOn(node)) {
            sum = plus(sum, GantryPods.requestsOf(p));
        }
        for (TrackedJob job : book.tracked.values()) {
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
