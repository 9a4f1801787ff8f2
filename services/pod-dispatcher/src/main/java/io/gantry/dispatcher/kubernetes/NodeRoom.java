package io.gantry.dispatcher.kubernetes;

import static io.gantry.dispatcher.kubernetes.GantryPods.GPU;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.gantry.events.ResourceAmounts;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What a node offers (allocatable resources, schedulable or not, taints and their tolerations) and resource sums. */
final class NodeRoom {

    private NodeRoom() {
    }

    static ResourceAmounts allocatable(Node node) {
        Map<String, io.fabric8.kubernetes.api.model.Quantity> a = node.getStatus() == null ? null
                : node.getStatus().getAllocatable();
        if (a == null || a.isEmpty()) {
            a = node.getStatus() == null ? null : node.getStatus().getCapacity();
        }
        return GantryPods.amounts(GantryPods.quantity(a, "cpu"), GantryPods.quantity(a, "memory"),
                GantryPods.quantity(a, GPU));
    }

    /** Null when pods may be placed on the node, else why not (cordoned, not ready). */
    static String unschedulableBecause(Node node) {
        if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            return "is cordoned";
        }
        List<NodeCondition> conditions = node.getStatus() == null ? null : node.getStatus().getConditions();
        if (conditions != null) {
            for (NodeCondition c : conditions) {
                if ("Ready".equals(c.getType()) && !"True".equals(c.getStatus())) {
                    return "is not ready (" + c.getReason() + ")";
                }
            }
        }
        return null;
    }

    static List<Taint> taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
    }

    static boolean blocks(Taint taint) {
        return "NoSchedule".equals(taint.getEffect()) || "NoExecute".equals(taint.getEffect());
    }

    /** Kubernetes' toleration rule: same key (or none with Exists), value equal unless Exists, effect equal or empty. */
    static boolean tolerated(Taint taint, Pod pod) {
        List<Toleration> tolerations = pod.getSpec().getTolerations();
        if (tolerations == null) {
            return false;
        }
        for (Toleration t : tolerations) {
            boolean exists = "Exists".equals(t.getOperator());
            boolean keyMatches = (t.getKey() == null || t.getKey().isEmpty()) ? exists : t.getKey().equals(taint.getKey());
            boolean valueMatches = exists || Objects.equals(Objects.toString(t.getValue(), ""),
                    Objects.toString(taint.getValue(), ""));
            boolean effectMatches = t.getEffect() == null || t.getEffect().isEmpty() || t.getEffect().equals(taint.getEffect());
            if (keyMatches && valueMatches && effectMatches) {
                return true;
            }
        }
        return false;
    }

    static ResourceAmounts plus(ResourceAmounts a, ResourceAmounts b) {
        return new ResourceAmounts(a.gpuMilli() + b.gpuMilli(), a.cpuMilli() + b.cpuMilli(), a.memoryMib() + b.memoryMib());
    }

    static ResourceAmounts minus(ResourceAmounts a, ResourceAmounts b) {
        return new ResourceAmounts(a.gpuMilli() - b.gpuMilli(), a.cpuMilli() - b.cpuMilli(), a.memoryMib() - b.memoryMib());
    }

    static ResourceAmounts max(ResourceAmounts a, ResourceAmounts b) {
        return new ResourceAmounts(Math.max(a.gpuMilli(), b.gpuMilli()), Math.max(a.cpuMilli(), b.cpuMilli()),
                Math.max(a.memoryMib(), b.memoryMib()));
    }

    static String describe(ResourceAmounts r) {
        return String.format("%.3f GPU / %d mCPU / %d MiB", r.gpuMilli() / 1000.0, r.cpuMilli(), r.memoryMib());
    }
}
